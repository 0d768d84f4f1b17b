import { describe, it, expect } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { createRandom, VirtualClock } from '@/lib/clock';
import { signThinking } from '../signature';
import { anthropicClient, fixedPolicy, TOOL_SCHEMAS } from '../sim-fixtures.testkit';
import { createSimAnthropic } from './sim-anthropic';

const TOOLS = TOOL_SCHEMAS as Anthropic.Tool[];
const THINK = { type: 'enabled', budget_tokens: 1024 } as const;
const turn = {
  thinking: 'Read the file next.',
  toolCalls: [{ name: 'read_file', argsText: '{"path":"a.ts"}' }],
};

/** The SDK's APIError for a request, or a failure if it succeeded. */
async function rejection(params: Record<string, unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
  const { client } = anthropicClient({ policy: fixedPolicy(turn) });
  try {
    await client.messages.create({
      model: 'claude-sim-sonnet',
      max_tokens: 2048,
      stream: true,
      ...params,
    } as unknown as Anthropic.MessageCreateParamsStreaming);
  } catch (error) {
    if (error instanceof Anthropic.APIError) return error;
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

function expectInvalid(error: InstanceType<typeof Anthropic.APIError>, message: string): void {
  expect(error.status).toBe(400);
  expect(error.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message } });
  expect(error.requestID).toMatch(/^req_011C/);
}

describe('simulated Anthropic: strict validation', () => {
  it('rejects a missing key with 401 authentication_error', async () => {
    const fetch = createSimAnthropic({
      clock: new VirtualClock(),
      random: createRandom(1),
      policy: fixedPolicy(turn),
    });
    const res = await fetch('http://sim.anthropic.local/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': '' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
    });
    const strict = createSimAnthropic({
      clock: new VirtualClock(),
      random: createRandom(1),
      policy: fixedPolicy(turn),
      apiKey: 'right',
    });
    const client = new Anthropic({
      apiKey: 'wrong',
      baseURL: 'http://sim.anthropic.local',
      fetch: strict,
      maxRetries: 0,
    });
    const error = await client.messages
      .create({ model: 'claude-sim-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      error: { message: 'invalid x-api-key' },
    });
  });

  it('rejects an unknown model with 404 not_found_error', async () => {
    const error = await rejection({ model: 'claude-nope', messages: [{ role: 'user', content: 'hi' }] });
    expect(error.status).toBe(404);
    expect(error.error).toMatchObject({ error: { type: 'not_found_error', message: 'model: claude-nope' } });
  });

  it('names the malformed field', async () => {
    expectInvalid(
      await rejection({ max_tokens: undefined, messages: [{ role: 'user', content: 'hi' }] }),
      'max_tokens: Field required',
    );
    expectInvalid(await rejection({}), 'messages: Field required');
    expectInvalid(
      await rejection({ messages: [{ role: 'robot', content: 'hi' }] }),
      "messages.0.role: Input should be 'user' or 'assistant'",
    );
    expectInvalid(
      await rejection({ messages: [{ role: 'assistant', content: 'hi' }] }),
      'messages: first message must use the "user" role',
    );
    expectInvalid(
      await rejection({ max_tokens: 100_000, messages: [{ role: 'user', content: 'hi' }] }),
      'max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sim-sonnet',
    );
    expectInvalid(
      await rejection({ max_tokens: 1024, thinking: THINK, messages: [{ role: 'user', content: 'hi' }] }),
      '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
    );
  });

  it('rejects a tool_use without its tool_result, and a tool_result for an unknown id', async () => {
    const use = { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'a.ts' } };
    expectInvalid(
      await rejection({
        tools: TOOLS,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [use] },
          { role: 'user', content: 'and?' },
        ],
      }),
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
    expectInvalid(
      await rejection({
        tools: TOOLS,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [use] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_01A', content: 'x' },
              { type: 'tool_result', tool_use_id: 'toolu_01B', content: 'y' },
            ],
          },
        ],
      }),
      'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01B. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  });

  it('rejects a prompt over the model window with prompt is too long', async () => {
    const error = await rejection({
      model: 'claude-sim-haiku',
      messages: [{ role: 'user', content: 'lorem ipsum '.repeat(13_000) }],
    });
    expect(error.status).toBe(400);
    expect((error.error as { error: { message: string } }).error.message).toMatch(
      /^prompt is too long: \d+ tokens > 12000 maximum$/,
    );
  });

  it('rejects a foreign thinking signature and accepts a round-tripped one', async () => {
    const { client } = anthropicClient({ policy: fixedPolicy(turn) });
    const first = await client.messages.create({
      model: 'claude-sim-sonnet',
      max_tokens: 2048,
      thinking: THINK,
      tools: TOOLS,
      messages: [{ role: 'user', content: 'go' }],
    });
    const use = first.content.find((b) => b.type === 'tool_use')!;
    const history = (content: unknown[]): Anthropic.MessageParam[] => [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: content as Anthropic.ContentBlockParam[] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: use.id, content: 'export const a = 1;' }],
      },
    ];
    const next = await client.messages.create({
      model: 'claude-sim-sonnet',
      max_tokens: 2048,
      thinking: THINK,
      tools: TOOLS,
      messages: history(first.content),
    });
    expect(next.stop_reason).toBe('tool_use');

    const thinking = first.content[0] as Anthropic.ThinkingBlock;
    const forged = {
      ...thinking,
      signature: signThinking({
        key: 'someone-else',
        model: 'claude-sim-sonnet',
        thinking: thinking.thinking,
      }),
    };
    expectInvalid(
      await rejection({ thinking: THINK, tools: TOOLS, messages: history([forged, use]) }),
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    );
    const edited = { ...thinking, thinking: `${thinking.thinking} (edited)` };
    expectInvalid(
      await rejection({ thinking: THINK, tools: TOOLS, messages: history([edited, use]) }),
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    );
    // Minted for another model: replaying it into claude-sim-haiku fails.
    expectInvalid(
      await rejection({
        model: 'claude-sim-haiku',
        thinking: THINK,
        tools: TOOLS,
        messages: history([thinking, use]),
      }),
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    );
  });

  it('requires the continued assistant turn to start with thinking when thinking is on', async () => {
    const use = { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'a.ts' } };
    const error = await rejection({
      thinking: THINK,
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, use] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: 'x' }] },
      ],
    });
    expect(error.status).toBe(400);
    expect((error.error as { error: { message: string } }).error.message).toMatch(
      /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\. When `thinking` is enabled, a final `assistant` message must start with a thinking block \(preceeding the lastmost set of `tool_use` and `tool_result` blocks\)\./,
    );
  });
});
