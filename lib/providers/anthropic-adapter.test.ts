import { APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import { collectParts as collect, fixtureFetch, loadFixture, SSE_HEADERS } from './fixture-fetch';
import type { ModelRequest, StreamPart } from './types';

const KEY = 'sk-ant-test-KEY-must-never-leak';

const request: ModelRequest = {
  model: 'claude-haiku-4-5',
  system: 'You are a careful coding agent.',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'Make the failing test pass.' }] }],
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  maxTokens: 8192,
  thinking: true,
};

function providerFor(transport: ReturnType<typeof fixtureFetch>) {
  return createProvider({ vendor: 'anthropic', apiKey: KEY, fetch: transport.fetch, maxRetries: 0 });
}

describe('anthropic adapter over recorded-form streams', () => {
  it('turns a thinking + tool_use stream into the exact part sequence', async () => {
    const transport = fixtureFetch({
      body: loadFixture('anthropic-thinking-tool-use.sse'),
      headers: SSE_HEADERS,
      chunkSize: 7,
    });
    const parts = await collect(providerFor(transport), request, { signal: new AbortController().signal });
    expect(parts).toEqual([
      { type: 'connected' },
      {
        type: 'response-start',
        id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
        model: 'claude-sonnet-4-5-20250929',
        inputTokens: 849,
        cachedInput: { read: 0, written: 0 },
      },
      { type: 'thinking-delta', index: 0, text: 'The test fails on an off-by-one. ' },
      { type: 'thinking-delta', index: 0, text: 'Read the file first.' },
      {
        type: 'thinking-signature',
        index: 0,
        signature:
          'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxDmXd8ZfXPI0DiyRwiMEYnhxeCRr2yKxcZOvGQ8oQH9D2TYmmNbF5dxQCxS24glRdOkB5tJ/8SMsIvmAEABGUqEJbEXPjKbBPmzxJ8xRCE2Os=',
      },
      { type: 'block-stop', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'toolu_01A09q90qw90lq917835lq9', name: 'read_file' },
      { type: 'tool-call-delta', index: 1, argsText: '{"path": "src/ran' },
      { type: 'tool-call-delta', index: 1, argsText: 'ge.ts"}' },
      { type: 'block-stop', index: 1 },
      { type: 'usage', outputTokens: 47 },
      { type: 'finish', stopReason: 'tool_use', vendorStopReason: 'tool_use' },
    ]);
  });

  it('passes redacted thinking through and reassembles UTF-8 split across reads', async () => {
    const transport = fixtureFetch({
      body: loadFixture('anthropic-redacted-text.sse'),
      headers: SSE_HEADERS,
      chunkSize: 3,
    });
    const parts = await collect(providerFor(transport), request, { signal: new AbortController().signal });
    expect(parts).toEqual([
      { type: 'connected' },
      {
        type: 'response-start',
        id: 'msg_01Rd4ct3dTh1nk1ngX',
        model: 'claude-sonnet-4-5-20250929',
        inputTokens: 1500,
        cachedInput: { read: 300, written: 0 },
      },
      {
        type: 'redacted-thinking',
        index: 0,
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pnHgl0Q=',
      },
      { type: 'block-stop', index: 0 },
      { type: 'text-delta', index: 1, text: 'Fixed the bound: ' },
      { type: 'text-delta', index: 1, text: '`i <= n` → `i < n`. ✓' },
      { type: 'block-stop', index: 1 },
      { type: 'usage', outputTokens: 21 },
      { type: 'finish', stopReason: 'end_turn', vendorStopReason: 'end_turn' },
    ]);
  });

  it('yields what arrived from a cut stream and invents no finish', async () => {
    const transport = fixtureFetch({ body: loadFixture('anthropic-cut-mid-text.sse'), headers: SSE_HEADERS });
    const parts = await collect(providerFor(transport), request, { signal: new AbortController().signal });
    expect(parts).toEqual([
      { type: 'connected' },
      {
        type: 'response-start',
        id: 'msg_01CutStr3amY',
        model: 'claude-haiku-4-5-20251001',
        inputTokens: 310,
        cachedInput: { read: 0, written: 0 },
      },
      { type: 'text-delta', index: 0, text: 'Let me look at' },
    ]);
  });

  it('sends exactly the rendered params, with the key only in a header', async () => {
    const transport = fixtureFetch({
      body: loadFixture('anthropic-thinking-tool-use.sse'),
      headers: SSE_HEADERS,
    });
    const bodies: unknown[] = [];
    await collect(providerFor(transport), request, {
      signal: new AbortController().signal,
      onRequestBody: (b) => bodies.push(b),
    });
    expect(transport.requests).toHaveLength(1);
    const sent = transport.requests[0]!;
    expect(sent.url).toBe('https://api.anthropic.com/v1/messages');
    expect(JSON.parse(sent.bodyText)).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({
      model: 'claude-haiku-4-5',
      stream: true,
      thinking: { type: 'enabled' },
    });
    expect(sent.bodyText).not.toContain(KEY);
    expect(JSON.stringify(bodies)).not.toContain(KEY);
    // SDK 1.14 sends the key as a bearer token rather than x-api-key.
    expect(sent.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });
});

describe('anthropic adapter errors and aborts', () => {
  it('propagates a 529 overloaded_error as the SDK APIError with status and type', async () => {
    const transport = fixtureFetch({
      body: loadFixture('anthropic-error-529-overloaded.json'),
      status: 529,
      headers: {
        'content-type': 'application/json',
        'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fy',
        'x-should-retry': 'true',
      },
    });
    const error = await collect(providerFor(transport), request, {
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 529, type: 'overloaded_error' });
    expect(String((error as Error).message)).toContain('Overloaded');
    expect(String((error as Error).message)).not.toContain(KEY);
  });

  it('propagates a 400 prompt-too-long with its message text', async () => {
    const transport = fixtureFetch({
      body: loadFixture('anthropic-error-400-prompt-too-long.json'),
      status: 400,
      headers: { 'content-type': 'application/json' },
    });
    const error = await collect(providerFor(transport), request, {
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect((error as Error).message).toContain('prompt is too long: 200251 tokens > 200000 maximum');
  });

  it('surfaces a mid-stream error event as an APIError with no status and the vendor type', async () => {
    const transport = fixtureFetch({
      body: loadFixture('anthropic-midstream-overloaded.sse'),
      headers: SSE_HEADERS,
    });
    const seen: StreamPart[] = [];
    const error = await (async () => {
      await providerFor(transport).stream(request, {
        signal: new AbortController().signal,
        onPart: (part) => seen.push(part),
      });
    })().catch((e: unknown) => e);
    expect(seen.map((p) => p.type)).toEqual(['connected', 'response-start', 'text-delta']);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: undefined, type: 'overloaded_error' });
  });

  it('stops a stalled stream when the signal aborts, throwing the signal reason', async () => {
    const bytes = loadFixture('anthropic-thinking-tool-use.sse');
    const transport = fixtureFetch({ body: bytes, headers: SSE_HEADERS, stallAfterBytes: 700 });
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

  it('rejects at once when the signal is already aborted', async () => {
    const transport = fixtureFetch({
      body: loadFixture('anthropic-thinking-tool-use.sse'),
      headers: SSE_HEADERS,
    });
    const controller = new AbortController();
    const reason = new Error('run aborted');
    controller.abort(reason);
    await expect(collect(providerFor(transport), request, { signal: controller.signal })).rejects.toBe(
      reason,
    );
  });
});

describe("the SDK's own telemetry", () => {
  it('builds no span per request, even with a tracer provider registered', async () => {
    const { trace, INVALID_SPAN_CONTEXT } = await import('@opentelemetry/api');
    let spans = 0;
    const provider = {
      getTracer: () => ({
        startSpan: () => {
          spans += 1;
          return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
        },
        startActiveSpan: () => {
          throw new Error('not used');
        },
      }),
    };
    trace.setGlobalTracerProvider(provider);
    try {
      const transport = fixtureFetch({
        body: loadFixture('anthropic-thinking-tool-use.sse'),
        headers: SSE_HEADERS,
      });
      const parts = await collect(providerFor(transport), request, { signal: new AbortController().signal });
      expect(parts.at(-1)).toMatchObject({ type: 'finish' });
      // A run's trace is Loop Lab's, from its log: the SDK's span work was paid per request for nothing.
      expect(spans).toBe(0);
    } finally {
      trace.disable();
    }
  });
});
