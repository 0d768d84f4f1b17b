import { describe, it, expect } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { countTokens } from '@/lib/tokens/count-tokens';
import { anthropicClient, fixedPolicy, TOOL_SCHEMAS } from '../sim-fixtures.testkit';

const TURN = {
  thinking: 'The user wants the weather. I will call the tool.',
  text: 'Let me check that for you.',
  toolCalls: [{ name: 'read_file', argsText: '{"path":"src/math.ts"}' }],
};

describe('simulated Anthropic: streaming', () => {
  it('streams a message the SDK assembles into the policy turn', async () => {
    const { client } = anthropicClient({ policy: fixedPolicy(TURN) });
    const stream = client.messages.stream({
      model: 'claude-sim-sonnet',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Fix the bug.' }],
      tools: TOOL_SCHEMAS as Anthropic.Tool[],
    });
    const message = await stream.finalMessage();
    expect(message.id).toMatch(/^msg_01/);
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    const [thinking, text, tool] = message.content;
    expect(thinking).toMatchObject({ type: 'thinking', thinking: TURN.thinking });
    expect((thinking as Anthropic.ThinkingBlock).signature.length).toBeGreaterThan(20);
    expect(text).toMatchObject({ type: 'text', text: TURN.text });
    expect(tool).toMatchObject({ type: 'tool_use', name: 'read_file', input: { path: 'src/math.ts' } });
    expect((tool as Anthropic.ToolUseBlock).id).toMatch(/^toolu_01/);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage.input_tokens).toBeGreaterThan(countTokens('Fix the bug.'));
    const expectedOut =
      countTokens(TURN.thinking) +
      countTokens(TURN.text) +
      countTokens('read_file') +
      countTokens(TURN.toolCalls[0]!.argsText);
    expect(Math.abs(message.usage.output_tokens - expectedOut)).toBeLessThanOrEqual(3);
  });

  it('writes byte-faithful records: compact JSON, spaced ping, one signature, empty first JSON fragment', async () => {
    const { fetch } = anthropicClient({ policy: fixedPolicy(TURN) });
    const res = await fetch('http://sim.anthropic.local/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': 'sim', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-sim-haiku',
        max_tokens: 2048,
        stream: true,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'hi' }],
        tools: TOOL_SCHEMAS,
      }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('request-id')).toMatch(/^req_011C/);
    const body = await res.text();
    const records = body.split('\n\n').filter(Boolean);
    const events = records.map((r) => r.split('\n')[0]!.replace('event: ', ''));
    expect(events[0]).toBe('message_start');
    expect(events[1]).toBe('content_block_start');
    expect(records[2]).toBe('event: ping\ndata: {"type": "ping"}');
    expect(events.filter((e) => e === 'ping')).toHaveLength(1);
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(body.match(/"signature_delta"/g)).toHaveLength(1);
    expect(body).toContain(
      '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}',
    );
    const jsonDeltas = records.filter((r) => r.includes('input_json_delta'));
    expect(jsonDeltas[0]).toContain('"partial_json":""');
    expect(body).toContain('"stop_reason":"tool_use","stop_sequence":null}');
  });

  it('omits thinking when the request did not ask for it', async () => {
    const { client } = anthropicClient({ policy: fixedPolicy(TURN) });
    const message = await client.messages
      .stream({
        model: 'claude-sim-sonnet',
        max_tokens: 500,
        messages: [{ role: 'user', content: 'hi' }],
        tools: TOOL_SCHEMAS as Anthropic.Tool[],
      })
      .finalMessage();
    expect(message.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
  });

  it('answers stream:false with one JSON Message', async () => {
    const { client } = anthropicClient({ policy: fixedPolicy({ text: 'Hello there.', toolCalls: [] }) });
    const message = await client.messages.create({
      model: 'claude-sim-sonnet',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello there.' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(countTokens('Hello there.'));
  });

  it('cuts output at max_tokens, mid tool JSON, and stops with max_tokens', async () => {
    const long = { path: 'src/big.ts', content: 'word '.repeat(200) };
    const { client } = anthropicClient({
      policy: fixedPolicy({ toolCalls: [{ name: 'write_file', argsText: JSON.stringify(long) }] }),
    });
    const stream = client.messages.stream({
      model: 'claude-sim-sonnet',
      max_tokens: 40,
      messages: [{ role: 'user', content: 'write' }],
      tools: TOOL_SCHEMAS as Anthropic.Tool[],
    });
    let json = '';
    stream.on('inputJson', (delta) => {
      json += delta;
    });
    const message = await stream.finalMessage();
    expect(json.length).toBeGreaterThan(0);
    expect(() => JSON.parse(json)).toThrow();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(40);
    const res = await anthropicClient({
      policy: fixedPolicy({
        text: 'one two three four five six seven eight nine ten eleven twelve',
        toolCalls: [],
      }),
    }).client.messages.create({
      model: 'claude-sim-sonnet',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'count' }],
    });
    expect(res.stop_reason).toBe('max_tokens');
    expect(res.usage.output_tokens).toBe(5);
    expect(res.content[0]).toMatchObject({ type: 'text', text: 'one two three four five' });
  });

  it('takes a paced, seeded time on the clock and repeats bytes for the same seed', async () => {
    const run = async (seed: number): Promise<{ body: string; ms: number }> => {
      const { fetch, clock } = anthropicClient({ policy: fixedPolicy(TURN), seed });
      const res = await fetch('http://sim.anthropic.local/v1/messages', {
        method: 'POST',
        headers: { 'x-api-key': 'sim' },
        body: JSON.stringify({
          model: 'claude-sim-sonnet',
          max_tokens: 2048,
          stream: true,
          thinking: { type: 'enabled', budget_tokens: 1024 },
          messages: [{ role: 'user', content: 'hi' }],
          tools: TOOL_SCHEMAS,
        }),
      });
      return { body: await res.text(), ms: clock.now() };
    };
    const [a, b, c] = [await run(7), await run(7), await run(8)];
    expect(a.body).toBe(b.body);
    expect(a.ms).toBe(b.ms);
    expect(c.body).not.toBe(a.body);
    expect(a.ms).toBeGreaterThan(300);
    expect(a.ms).toBeLessThan(3000);
  });

  it('stops a stream when the signal aborts mid-way', async () => {
    const { client, clock } = anthropicClient({
      policy: fixedPolicy({ text: 'word '.repeat(400), toolCalls: [] }),
    });
    const controller = new AbortController();
    const stream = client.messages.stream(
      { model: 'claude-sim-sonnet', max_tokens: 2000, messages: [{ role: 'user', content: 'hi' }] },
      { signal: controller.signal },
    );
    let seen = '';
    stream.on('text', (delta) => {
      seen += delta;
      if (seen.length > 50) controller.abort();
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(seen.length).toBeLessThan(400 * 5);
    expect(clock.pending).toBe(0);
  });

  it('answers other paths with the vendor 404 body', async () => {
    const { fetch } = anthropicClient({ policy: fixedPolicy(TURN) });
    const res = await fetch('http://sim.anthropic.local/v1/models', {
      method: 'GET',
      headers: { 'x-api-key': 'sim' },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: 'Not Found' },
    });
  });
});

describe('simulated Anthropic: internal errors', () => {
  it('answers a throwing policy with 500 api_error, as the vendor would', async () => {
    const { client } = anthropicClient({
      policy: () => {
        throw new Error('policy bug');
      },
    });
    const error = await client.messages
      .create({ model: 'claude-sim-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      error: { type: 'api_error' },
    });
  });
});
