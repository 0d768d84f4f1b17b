import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import { collectParts as collect, fixtureFetch, loadFixture, SSE_HEADERS } from './fixture-fetch';
import type { ModelRequest, ProviderOptions, StreamPart } from './types';

const KEY = 'sk-proj-test-KEY-must-never-leak';

const request: ModelRequest = {
  model: 'gpt-4o',
  system: 'You are a careful coding agent.',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'Make the failing test pass.' }] }],
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  maxTokens: 4096,
  thinking: false,
};

function providerFor(transport: ReturnType<typeof fixtureFetch>, extra: Partial<ProviderOptions> = {}) {
  return createProvider({ vendor: 'openai', apiKey: KEY, fetch: transport.fetch, maxRetries: 0, ...extra });
}

const signal = () => new AbortController().signal;

describe('openai adapter over recorded-form streams', () => {
  it('turns parallel tool-call chunks with include_usage into the exact part sequence', async () => {
    const transport = fixtureFetch({
      body: loadFixture('openai-tool-call.sse'),
      headers: SSE_HEADERS,
      chunkSize: 5,
    });
    const parts = await collect(providerFor(transport), request, { signal: signal() });
    expect(parts).toEqual([
      { type: 'connected' },
      { type: 'response-start', id: 'chatcmpl-AE1bT7Hc3Rk9xQ2mZ0', model: 'gpt-4o-2024-08-06' },
      { type: 'tool-call-start', index: 0, id: 'call_Fz1sQx7bN2', name: 'read_file' },
      { type: 'tool-call-delta', index: 0, argsText: '{"pa' },
      { type: 'tool-call-delta', index: 0, argsText: 'th": "src/range.ts"}' },
      { type: 'tool-call-start', index: 1, id: 'call_Qm8vR4pL0c', name: 'run_check' },
      { type: 'tool-call-delta', index: 1, argsText: '{}' },
      { type: 'block-stop', index: 0 },
      { type: 'block-stop', index: 1 },
      { type: 'usage', inputTokens: 412, outputTokens: 38, cachedInput: { read: 0, written: 0 } },
      { type: 'finish', stopReason: 'tool_use', vendorStopReason: 'tool_calls' },
    ]);
  });

  it('maps text and a length finish, with multibyte text split across reads', async () => {
    const transport = fixtureFetch({
      body: loadFixture('openai-text.sse'),
      headers: SSE_HEADERS,
      chunkSize: 3,
    });
    const parts = await collect(providerFor(transport), request, { signal: signal() });
    expect(parts).toEqual([
      { type: 'connected' },
      { type: 'response-start', id: 'chatcmpl-ADx5Jh2wqvLq4fTnM8', model: 'gpt-4o-mini-2024-07-18' },
      { type: 'text-delta', index: 0, text: 'Hello' },
      { type: 'text-delta', index: 0, text: ' — déjà vu ✓' },
      { type: 'block-stop', index: 0 },
      { type: 'usage', inputTokens: 8, outputTokens: 9, cachedInput: { read: 5, written: 0 } },
      { type: 'finish', stopReason: 'max_tokens', vendorStopReason: 'length' },
    ]);
  });

  it('streams DeepSeek reasoning_content as thinking before text and the tool call', async () => {
    const transport = fixtureFetch({
      body: loadFixture('openai-deepseek-reasoning-tool.sse'),
      headers: SSE_HEADERS,
    });
    const provider = providerFor(transport, {
      vendor: 'openai-compatible',
      baseUrl: 'https://api.deepseek.com',
    });
    const parts = await collect(provider, { ...request, model: 'deepseek-chat' }, { signal: signal() });
    expect(parts).toEqual([
      { type: 'connected' },
      { type: 'response-start', id: '5f1c2d3e-8a4b-4c6d-9e0f-1a2b3c4d5e6f', model: 'deepseek-chat' },
      { type: 'thinking-delta', index: 0, text: 'The check fails; ' },
      { type: 'thinking-delta', index: 0, text: 'run it first.' },
      { type: 'text-delta', index: 1, text: 'Running the check.' },
      { type: 'tool-call-start', index: 2, id: 'call_00_Xq3vY8kL2mN', name: 'run_check' },
      { type: 'tool-call-delta', index: 2, argsText: '{}' },
      { type: 'block-stop', index: 0 },
      { type: 'block-stop', index: 1 },
      { type: 'block-stop', index: 2 },
      { type: 'usage', inputTokens: 620, outputTokens: 57, cachedInput: { read: 512, written: 0 } },
      { type: 'finish', stopReason: 'tool_use', vendorStopReason: 'tool_calls' },
    ]);
    expect(transport.requests[0]?.url).toBe('https://api.deepseek.com/chat/completions');
    expect(JSON.parse(transport.requests[0]!.bodyText)).toMatchObject({ max_tokens: 4096 });
  });

  it('yields what arrived from a cut stream: no block-stop, no finish', async () => {
    const transport = fixtureFetch({ body: loadFixture('openai-cut-mid-args.sse'), headers: SSE_HEADERS });
    const parts = await collect(providerFor(transport), request, { signal: signal() });
    expect(parts).toEqual([
      { type: 'connected' },
      { type: 'response-start', id: 'chatcmpl-AE9cUtStr3amQ', model: 'gpt-4o-2024-08-06' },
      { type: 'tool-call-start', index: 0, id: 'call_Cut0ff9', name: 'write_file' },
      { type: 'tool-call-delta', index: 0, argsText: '{"path":"src/ra' },
    ]);
  });

  it('sends exactly the rendered params, with the key only in a header', async () => {
    const transport = fixtureFetch({ body: loadFixture('openai-text.sse'), headers: SSE_HEADERS });
    const bodies: unknown[] = [];
    await collect(providerFor(transport), request, {
      signal: signal(),
      onRequestBody: (b) => bodies.push(b),
    });
    const sent = transport.requests[0]!;
    expect(sent.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(JSON.parse(sent.bodyText)).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 4096,
    });
    expect(sent.bodyText).not.toContain(KEY);
    expect(sent.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });
});

describe('openai adapter errors and aborts', () => {
  it('propagates a 400 context_length_exceeded as the SDK APIError with status, type and code', async () => {
    const transport = fixtureFetch({
      body: loadFixture('openai-error-400-context-length.json'),
      status: 400,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_7f3a' },
    });
    const error = await collect(providerFor(transport), request, { signal: signal() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
    });
    expect((error as Error).message).toContain("This model's maximum context length is 128000 tokens.");
    expect((error as Error).message).not.toContain(KEY);
  });

  it('propagates a 429 with its retry-after header for the classifier', async () => {
    const transport = fixtureFetch({
      body: loadFixture('openai-error-429-rate-limit.json'),
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after-ms': '644' },
    });
    const error = await collect(providerFor(transport), request, { signal: signal() }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 429, type: 'tokens', code: 'rate_limit_exceeded' });
    expect((error as APIError).headers?.get('retry-after-ms')).toBe('644');
  });

  it('surfaces an error chunk inside a 200 stream as an APIError without status', async () => {
    const transport = fixtureFetch({ body: loadFixture('openai-midstream-error.sse'), headers: SSE_HEADERS });
    const seen: StreamPart[] = [];
    const error = await (async () => {
      await providerFor(transport).stream(request, { signal: signal(), onPart: (part) => seen.push(part) });
    })().catch((e: unknown) => e);
    expect(seen.map((p) => p.type)).toEqual(['connected', 'response-start']);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: undefined, type: 'server_error' });
  });

  it('stops a stalled stream when the signal aborts, throwing the signal reason', async () => {
    const transport = fixtureFetch({
      body: loadFixture('openai-tool-call.sse'),
      headers: SSE_HEADERS,
      stallAfterBytes: 900,
    });
    const controller = new AbortController();
    const reason = new Error('stream idle for 30000 ms');
    const seen: StreamPart[] = [];
    const error = await (async () => {
      await providerFor(transport).stream(request, {
        signal: controller.signal,
        onPart: (part) => {
          seen.push(part);
          if (seen.length === 2) setTimeout(() => controller.abort(reason), 10);
        },
      });
    })().catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(seen.slice(0, 2).map((p) => p.type)).toEqual(['connected', 'response-start']);
    expect(seen.some((p) => p.type === 'finish')).toBe(false);
  });
});
