import { describe, it, expect } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { getScenario, DEFAULT_SCENARIO_ID } from '@/lib/tools';
import { createPolicy } from './policies/create-policy';
import { scenarioTools } from './policies/policy-harness';
import { anthropicClient, openaiClient } from './sim-fixtures.testkit';

/** Whole tool loops through the real SDKs: the worker's turns must satisfy the sims' own rules. */
describe('worker through the real SDKs', () => {
  const scenario = getScenario(DEFAULT_SCENARIO_ID)!;

  it('Anthropic: thinking round-trips through a full tool loop and the task gets done', async () => {
    const { run, tools, workspace } = scenarioTools(scenario);
    const { client, clock } = anthropicClient({ policy: createPolicy('worker', scenario), seed: 11 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: scenario.task }];
    const stops: string[] = [];
    for (let turn = 0; turn < 20; turn++) {
      const message = await client.messages
        .stream({
          model: 'claude-sim-sonnet',
          max_tokens: 4096,
          thinking: { type: 'enabled', budget_tokens: 2048 },
          messages,
          tools: tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
          })),
        })
        .finalMessage();
      stops.push(message.stop_reason!);
      expect(message.content[0]?.type).toBe('thinking');
      messages.push({ role: 'assistant', content: message.content });
      const uses = message.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
      if (uses.length === 0) break;
      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const use of uses) {
        const result = await run(use.name, JSON.stringify(use.input));
        results.push({
          type: 'tool_result',
          tool_use_id: use.id,
          content: result.content,
          is_error: result.isError,
        });
      }
      messages.push({ role: 'user', content: results });
    }
    expect(stops[stops.length - 1]).toBe('end_turn');
    expect(stops.filter((s) => s === 'tool_use').length).toBeGreaterThanOrEqual(4);
    expect((await scenario.check(workspace)).passed).toBe(true);
    // About one to three seconds of run time a turn.
    expect(clock.now() / stops.length).toBeGreaterThan(500);
    expect(clock.now() / stops.length).toBeLessThan(3000);
  });

  it('OpenAI: tool messages carry the loop to the final answer', async () => {
    const { run, tools, workspace } = scenarioTools(scenario);
    const { client } = openaiClient({ policy: createPolicy('worker', scenario), seed: 5 });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: scenario.task }];
    let final = '';
    for (let turn = 0; turn < 20; turn++) {
      const completion = await client.chat.completions
        .stream({
          model: 'gpt-sim-mini',
          max_completion_tokens: 2048,
          messages,
          stream_options: { include_usage: true },
          tools: tools.map((t) => ({
            type: 'function',
            function: { name: t.name, description: t.description, parameters: t.inputSchema },
          })),
        })
        .finalChatCompletion();
      const message = completion.choices[0]!.message;
      messages.push({
        role: 'assistant',
        content: message.content,
        ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
      });
      if (!message.tool_calls?.length) {
        expect(completion.choices[0]!.finish_reason).toBe('stop');
        final = message.content ?? '';
        break;
      }
      for (const call of message.tool_calls) {
        if (call.type !== 'function') continue;
        const result = await run(call.function.name, call.function.arguments);
        messages.push({ role: 'tool', tool_call_id: call.id, content: result.content });
      }
    }
    expect(final).toBe(scenario.hints.summary);
    expect((await scenario.check(workspace)).passed).toBe(true);
  });
});
