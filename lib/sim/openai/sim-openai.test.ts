import { describe, it, expect } from 'vitest';
import OpenAI from 'openai';
import { createRandom, VirtualClock } from '@/lib/clock';
import { countTokens } from '@/lib/tokens/count-tokens';
import { fixedPolicy, openaiClient, TOOL_SCHEMAS } from '../sim-fixtures.testkit';
import { createSimOpenAI } from './sim-openai';

const TOOLS: OpenAI.ChatCompletionTool[] = TOOL_SCHEMAS.map((t) => ({
  type: 'function',
  function: { name: t.name, description: t.description, parameters: t.input_schema },
}));
const TURN = {
  text: 'Reading both files.',
  toolCalls: [
    { name: 'read_file', argsText: '{"path":"src/math.ts"}' },
    { name: 'read_file', argsText: '{"path":"src/math.test.ts"}' },
  ],
};
const BASE = {
  model: 'gpt-sim-4o',
  messages: [{ role: 'user' as const, content: 'Fix the bug.' }],
  tools: TOOLS,
};

/** The loose shape of a chunk as it appears on the wire, for byte-level assertions. */
interface WireChunk {
  id: string;
  created: number;
  usage: { prompt_tokens: number } | null;
  choices: {
    delta: { tool_calls?: { index: number; id?: string; function: Record<string, string> }[] } & Record<
      string,
      unknown
    >;
    finish_reason: string | null;
  }[];
}

async function rejection(params: Record<string, unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const { client } = openaiClient({ policy: fixedPolicy(TURN) });
  try {
    await client.chat.completions.create({
      ...BASE,
      ...params,
    } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

describe('simulated OpenAI: streaming', () => {
  it('streams chunks the SDK assembles into the policy turn, with a usage chunk', async () => {
    const { client } = openaiClient({ policy: fixedPolicy(TURN) });
    const stream = client.chat.completions.stream({ ...BASE, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]!.message;
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(message.content).toBe(TURN.text);
    expect(
      message.tool_calls?.map((c) => c.type === 'function' && [c.function.name, c.function.arguments]),
    ).toEqual([
      ['read_file', '{"path":"src/math.ts"}'],
      ['read_file', '{"path":"src/math.test.ts"}'],
    ]);
    expect(message.tool_calls?.[0]?.id).toMatch(/^call_/);
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    const expectedOut =
      countTokens(TURN.text) +
      2 * countTokens('read_file') +
      countTokens(TURN.toolCalls[0]!.argsText) +
      countTokens(TURN.toolCalls[1]!.argsText);
    expect(Math.abs(completion.usage!.completion_tokens - expectedOut)).toBeLessThanOrEqual(3);
    expect(completion.usage!.total_tokens).toBe(
      completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
    );
  });

  it('writes the wire shape: role chunk, tool fragments, finish chunk, usage chunk, [DONE]', async () => {
    const { fetch } = openaiClient({ policy: fixedPolicy({ toolCalls: TURN.toolCalls }) });
    const res = await fetch('http://sim.openai.local/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer sim' },
      body: JSON.stringify({ ...BASE, stream: true, stream_options: { include_usage: true } }),
    });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const body = await res.text();
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = body
      .split('\n\n')
      .filter((r) => r && r !== 'data: [DONE]')
      .map((r) => JSON.parse(r.slice(6)) as WireChunk);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(new Set(chunks.map((c) => c.created)).size).toBe(1);
    expect(chunks[0]!.choices[0]!.delta).toMatchObject({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, type: 'function', function: { name: 'read_file', arguments: '' } }],
    });
    const later = chunks.slice(1).flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(later.filter((t) => t.id).map((t) => t.index)).toEqual([1]);
    expect(later.filter((t) => !t.id).every((t) => Object.keys(t.function).join() === 'arguments')).toBe(
      true,
    );
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(chunks[chunks.length - 2]!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('cuts at max_completion_tokens with finish_reason length', async () => {
    const { client } = openaiClient({
      policy: fixedPolicy({ text: 'one two three four five six seven eight', toolCalls: [] }),
    });
    const completion = await client.chat.completions.create({ ...BASE, max_completion_tokens: 4 });
    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.choices[0]!.message.content).toBe('one two three four');
    expect(completion.usage!.completion_tokens).toBe(4);
  });

  it('same seed gives identical bytes; a turn takes about a second of run time', async () => {
    const run = async (): Promise<{ body: string; ms: number }> => {
      const clock = new VirtualClock();
      const fetch = createSimOpenAI({ clock, random: createRandom(3), policy: fixedPolicy(TURN) });
      const res = await fetch('http://sim.openai.local/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: 'Bearer k' },
        body: JSON.stringify({ ...BASE, stream: true }),
      });
      return { body: await res.text(), ms: clock.now() };
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(a.body).not.toContain('"usage"');
    expect(a.ms).toBeGreaterThan(300);
    expect(a.ms).toBeLessThan(3000);
  });

  it('stops when the signal aborts mid-stream', async () => {
    const { client, clock } = openaiClient({
      policy: fixedPolicy({ text: 'word '.repeat(400), toolCalls: [] }),
    });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { ...BASE, stream: true },
      { signal: controller.signal },
    );
    let seen = '';
    // The OpenAI SDK ends the iteration quietly when its own signal aborts the body.
    for await (const chunk of stream) {
      seen += chunk.choices[0]?.delta.content ?? '';
      if (seen.length > 40) controller.abort();
    }
    expect(seen.length).toBeGreaterThan(40);
    expect(seen.length).toBeLessThan(100);
    expect(clock.pending).toBe(0);
  });
});

describe('simulated OpenAI: strict validation', () => {
  it('rejects a missing key with 401', async () => {
    const fetch = createSimOpenAI({
      clock: new VirtualClock(),
      random: createRandom(1),
      policy: fixedPolicy(TURN),
    });
    const res = await fetch('http://sim.openai.local/v1/chat/completions', { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toMatch(/^You didn't provide an API key/);
  });

  it('rejects an unknown model with 404 model_not_found', async () => {
    const error = await rejection({ model: 'gpt-nope' });
    expect(error.status).toBe(404);
    expect(error.code).toBe('model_not_found');
    expect(error.error).toMatchObject({
      message: 'The model `gpt-nope` does not exist or you do not have access to it.',
      type: 'invalid_request_error',
    });
  });

  it('names the malformed field', async () => {
    const error = await rejection({ messages: undefined });
    expect(error.status).toBe(400);
    expect(error.param).toBe('messages');
    expect(error.message).toContain("Missing required parameter: 'messages'.");
    const role = await rejection({ messages: [{ role: 'robot', content: 'x' }] });
    expect(role.param).toBe('messages[0].role');
    expect(role.code).toBe('invalid_value');
  });

  it('rejects assistant tool_calls not followed by tool messages', async () => {
    const error = await rejection({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_A', type: 'function', function: { name: 'read_file', arguments: '{}' } },
            { id: 'call_B', type: 'function', function: { name: 'read_file', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_A', content: 'ok' },
        { role: 'user', content: 'next' },
      ],
    });
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.error).toMatchObject({
      message:
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_B",
    });
  });

  it('rejects a prompt over the window with context_length_exceeded', async () => {
    const error = await rejection({
      model: 'gpt-sim-mini',
      messages: [{ role: 'user', content: 'lorem ipsum '.repeat(13_000) }],
    });
    expect(error.status).toBe(400);
    expect(error.code).toBe('context_length_exceeded');
    expect(error.message).toMatch(
      /This model's maximum context length is 12000 tokens\. However, your messages resulted in \d+ tokens\. Please reduce the length of the messages\./,
    );
  });

  it('answers other paths with the vendor 404 body', async () => {
    const { fetch } = openaiClient({ policy: fixedPolicy(TURN) });
    const res = await fetch('http://sim.openai.local/v1/responses', {
      method: 'POST',
      headers: { authorization: 'Bearer sim' },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        message: 'Invalid URL (POST /v1/responses)',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });
});
