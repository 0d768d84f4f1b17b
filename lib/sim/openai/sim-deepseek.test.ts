import { describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createRandom, VirtualClock } from '@/lib/clock';
import { fixedPolicy } from '../sim-fixtures.testkit';
import { REASONING_CONTENT_MISSING } from './check-request';
import { createSimDeepSeek } from './sim-openai';

const TURN = {
  thinking: 'The check reads add(); look there.',
  text: '',
  toolCalls: [{ name: 'run_check', argsText: '{}' }],
};
const TOOLS: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'run_check',
      description: 'Run the check',
      parameters: { type: 'object', properties: {} },
    },
  },
];

function client(): OpenAI {
  const fetch = createSimDeepSeek({
    clock: new VirtualClock(),
    random: createRandom(3),
    policy: fixedPolicy(TURN),
  });
  return new OpenAI({ apiKey: 'sim', baseURL: 'http://sim.deepseek.local/v1', fetch, maxRetries: 0 });
}

describe('simulated DeepSeek-style reasoning endpoint', () => {
  it('streams reasoning_content before the tool call, counted as reasoning tokens', async () => {
    const stream = await client().chat.completions.create({
      model: 'deepseek-sim-reasoner',
      messages: [{ role: 'user', content: 'Go.' }],
      tools: TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    let reasoning = '';
    let firstCallAt = -1;
    let n = 0;
    let reasoningTokens = 0;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as
        { reasoning_content?: string; tool_calls?: unknown[] } | undefined;
      if (delta?.reasoning_content) reasoning += delta.reasoning_content;
      if (delta?.tool_calls && firstCallAt < 0) firstCallAt = n;
      if (chunk.usage) reasoningTokens = chunk.usage.completion_tokens_details?.reasoning_tokens ?? 0;
      if (!delta?.tool_calls && firstCallAt < 0) n++;
    }
    expect(reasoning).toBe(TURN.thinking);
    expect(firstCallAt).toBeGreaterThan(1);
    expect(reasoningTokens).toBeGreaterThan(0);
  });

  it('refuses a thinking-mode tool-call turn sent back without reasoning_content, and accepts an empty one', async () => {
    const turn = (reasoning?: string): OpenAI.ChatCompletionMessageParam[] => [
      { role: 'user', content: 'Go.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_check', arguments: '{}' } }],
        ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
      } as OpenAI.ChatCompletionMessageParam,
      { role: 'tool', tool_call_id: 'call_1', content: '1 passed' },
    ];
    const error = await client()
      .chat.completions.create({ model: 'deepseek-sim-reasoner', messages: turn(), tools: TOOLS })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toBe(
      `400 ${REASONING_CONTENT_MISSING}`,
    );
    const ok = await client().chat.completions.create({
      model: 'deepseek-sim-reasoner',
      messages: turn(''),
      tools: TOOLS,
    });
    expect(ok.choices[0]?.message.tool_calls).toHaveLength(1);
  });

  it('serves only its own models', async () => {
    const error = await client()
      .chat.completions.create({ model: 'gpt-sim-4o', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('400 Model Not Exist');
  });
});
