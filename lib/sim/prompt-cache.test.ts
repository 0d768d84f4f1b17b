import { describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { anthropicClient, fixedPolicy, openaiClient, TOOL_SCHEMAS } from './sim-fixtures.testkit';

const ANSWER = fixedPolicy({ text: 'Done.', toolCalls: [] });
/** About 1,500 tokens of stable text: over Sonnet's 1,024-token minimum, under Haiku's 2,048. */
const LONG_SYSTEM = Array.from(
  { length: 90 },
  (_, i) => `Rule ${i}: keep the change small and say what you did.`,
).join('\n');
const EPHEMERAL = { type: 'ephemeral' } as const;

function anthropicRequest(options: {
  system?: string;
  messages: Anthropic.MessageParam[];
  model?: string;
  markSystem?: boolean;
}): Anthropic.MessageCreateParamsNonStreaming {
  const system = options.system ?? LONG_SYSTEM;
  return {
    model: options.model ?? 'claude-sim-sonnet',
    max_tokens: 256,
    system:
      options.markSystem === false ? system : [{ type: 'text', text: system, cache_control: EPHEMERAL }],
    tools: TOOL_SCHEMAS.map((t, i) =>
      i === TOOL_SCHEMAS.length - 1 ? { ...t, cache_control: EPHEMERAL } : t,
    ) as Anthropic.Tool[],
    messages: options.messages,
  };
}

const ask = (text: string): Anthropic.MessageParam => ({
  role: 'user',
  content: [{ type: 'text', text, cache_control: EPHEMERAL }],
});

describe('the simulated Anthropic prompt cache, through the real SDK', () => {
  it('writes a marked prefix once, then reads it; input_tokens is only what follows it', async () => {
    const { client } = anthropicClient({ policy: ANSWER });
    const first = await client.messages.create(anthropicRequest({ messages: [ask('Fix the test.')] }));
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    const whole = first.usage.input_tokens + first.usage.cache_creation_input_tokens!;

    const second = await client.messages.create(
      anthropicRequest({
        messages: [
          { role: 'user', content: 'Fix the test.' },
          { role: 'assistant', content: 'On it.' },
          ask('Go on.'),
        ],
      }),
    );
    // The previous request's prefix (tools, system, its marked message) is read back; only the new turn is written.
    expect(second.usage.cache_read_input_tokens).toBe(whole);
    expect(second.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(second.usage.cache_creation_input_tokens).toBeLessThan(40);
  });

  it('caches nothing under the model’s minimum length (2,048 for Haiku), and nothing unmarked', async () => {
    const { client } = anthropicClient({ policy: ANSWER });
    const haiku = await client.messages.create(
      anthropicRequest({ model: 'claude-sim-haiku', messages: [ask('Fix the test.')] }),
    );
    expect(haiku.usage.cache_creation_input_tokens).toBe(0);
    const again = await client.messages.create(
      anthropicRequest({ model: 'claude-sim-haiku', messages: [ask('Fix the test.')] }),
    );
    expect(again.usage.cache_read_input_tokens).toBe(0);

    const unmarked: Anthropic.MessageCreateParamsNonStreaming = {
      model: 'claude-sim-sonnet',
      max_tokens: 256,
      system: LONG_SYSTEM,
      messages: [{ role: 'user', content: 'Fix.' }],
    };
    await client.messages.create(unmarked);
    const twice = await client.messages.create(unmarked);
    expect(twice.usage.cache_read_input_tokens).toBe(0);
    expect(twice.usage.cache_creation_input_tokens).toBe(0);
  });

  it('a prefix lives five minutes of run time, and each hit starts them again', async () => {
    const { client, clock } = anthropicClient({ policy: ANSWER });
    const request = anthropicRequest({ messages: [ask('Fix the test.')] });
    await client.messages.create(request);
    await clock.sleep(4 * 60_000);
    expect((await client.messages.create(request)).usage.cache_read_input_tokens).toBeGreaterThan(1024);
    // Eight minutes after the write, four after the hit: still there.
    await clock.sleep(4 * 60_000);
    expect((await client.messages.create(request)).usage.cache_read_input_tokens).toBeGreaterThan(1024);
    await clock.sleep(5 * 60_000 + 1_000);
    const expired = await client.messages.create(request);
    expect(expired.usage.cache_read_input_tokens).toBe(0);
    expect(expired.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
  });

  it('a changed byte invalidates everything after it: an edited system prompt keeps only the tools', async () => {
    const { client } = anthropicClient({ policy: ANSWER });
    const before = await client.messages.create(anthropicRequest({ messages: [ask('Fix the test.')] }));
    const edited = await client.messages.create(
      anthropicRequest({
        system: LONG_SYSTEM.replace('Rule 7:', 'Rule 7!'),
        messages: [ask('Fix the test.')],
      }),
    );
    // The tool list (under the minimum alone) is not a cached prefix of its own: nothing is read.
    expect(edited.usage.cache_read_input_tokens).toBe(0);
    expect(edited.usage.cache_creation_input_tokens).toBe(before.usage.cache_creation_input_tokens);
    // A changed last message keeps the prefix before it.
    const other = await client.messages.create(anthropicRequest({ messages: [ask('Fix the other test.')] }));
    expect(other.usage.cache_read_input_tokens).toBeGreaterThan(1024);
    expect(other.usage.cache_read_input_tokens).toBeLessThan(before.usage.cache_creation_input_tokens!);
  });

  it('refuses a fifth breakpoint with the vendor’s 400', async () => {
    const { client } = anthropicClient({ policy: ANSWER });
    const request = anthropicRequest({
      messages: [
        ask('a'),
        { role: 'assistant', content: [{ type: 'text', text: 'b', cache_control: EPHEMERAL }] },
        ask('c'),
      ],
    });
    await expect(client.messages.create(request)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('A maximum of 4 blocks with cache_control may be provided. Found 5.'),
    });
  });

  it('keeps nothing when the vendor option turns the cache off', async () => {
    const { client } = anthropicClient({ policy: ANSWER, promptCache: false });
    const request = anthropicRequest({ messages: [ask('Fix the test.')] });
    await client.messages.create(request);
    const again = await client.messages.create(request);
    expect(again.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });
});

describe('the simulated OpenAI automatic prefix cache, through the real SDK', () => {
  const request = (
    messages: OpenAI.ChatCompletionMessageParam[],
  ): OpenAI.ChatCompletionCreateParamsNonStreaming => ({
    model: 'gpt-sim-4o',
    max_completion_tokens: 256,
    messages: [{ role: 'system', content: LONG_SYSTEM }, ...messages],
  });

  it('reads the longest cached prefix in 128-token steps from 1,024, with no request field', async () => {
    const { client } = openaiClient({ policy: ANSWER });
    const first = await client.chat.completions.create(request([{ role: 'user', content: 'Fix the test.' }]));
    expect(first.usage!.prompt_tokens_details!.cached_tokens).toBe(0);
    const second = await client.chat.completions.create(
      request([
        { role: 'user', content: 'Fix the test.' },
        { role: 'assistant', content: 'On it.' },
        { role: 'user', content: 'Go on.' },
      ]),
    );
    const cached = second.usage!.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect((cached - 1024) % 128).toBe(0);
    expect(cached).toBeLessThanOrEqual(first.usage!.prompt_tokens);
    expect(first.usage!.prompt_tokens - cached).toBeLessThan(128);
  });

  it('caches no prompt under 1,024 tokens', async () => {
    const { client } = openaiClient({ policy: ANSWER });
    const short: OpenAI.ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-sim-4o',
      max_completion_tokens: 64,
      messages: [{ role: 'user', content: 'Fix.' }],
    };
    await client.chat.completions.create(short);
    expect((await client.chat.completions.create(short)).usage!.prompt_tokens_details!.cached_tokens).toBe(0);
  });
});
