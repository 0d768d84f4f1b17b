import Anthropic from '@anthropic-ai/sdk';
import type { APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createRandom, VirtualClock } from '@/lib/clock';
import type { FaultAction, FaultPlan } from '@/lib/protocol';
import { cannedSseFetch } from './testing/canned-fetch';
import { loadFixture } from './testing/fixtures';
import { runThroughSdk } from './testing/sdk-harness';
import { withFaults, type FaultInjection } from './with-faults';

/** The faulted fetch on its own, for asserting exact bytes and headers. */
function rawFaulted(dialect: 'anthropic' | 'openai', action: FaultAction) {
  const injections: FaultInjection[] = [];
  const inner = cannedSseFetch({ sse: loadFixture('anthropic-thinking-text-tool') });
  const plan: FaultPlan = {
    rules: [{ id: 'r', enabled: true, when: { kind: 'always' }, action }],
    tools: [],
  };
  const fetch = withFaults({
    fetch: inner,
    dialect,
    plan: () => plan,
    clock: new VirtualClock(),
    random: createRandom(3),
    onInject: (i) => injections.push(i),
  });
  const init = { method: 'POST', body: JSON.stringify({ model: 'gpt-4o-mini' }) };
  return { call: () => fetch('https://api.example.com/v1/chat/completions', init), inner, injections };
}

describe('withFaults: HTTP errors in the vendor’s own shape', () => {
  it('Anthropic 529: overloaded_error body with request_id mirroring request-id, SDK OverloadedError', async () => {
    const { call, inner, injections } = rawFaulted('anthropic', { type: 'http_error', status: 529 });
    const response = await call();
    expect(response.status).toBe(529);
    const id = response.headers.get('request-id');
    expect(id).toMatch(/^req_011C[0-9A-Za-z]{20}$/);
    expect(response.headers.get('x-should-retry')).toBe('true');
    expect(await response.text()).toBe(
      `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"${id}"}`,
    );
    expect(inner.calls).toBe(0);
    expect(injections).toEqual([expect.objectContaining({ requestNo: 1, label: 'HTTP 529' })]);

    const run = await runThroughSdk({ dialect: 'anthropic', action: { type: 'http_error', status: 529 } });
    expect(run.thrownAt).toBe('request');
    expect(run.error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(run.error).toMatchObject({ status: 529, type: 'overloaded_error', apiMessage: 'Overloaded' });
    expect(run.innerCalls).toBe(0);
  });

  it('OpenAI: a 529 goes out as the 503 engine-overloaded error, shaped {error:{message,type,param,code}}', async () => {
    const { call } = rawFaulted('openai', { type: 'http_error', status: 529 });
    const response = await call();
    expect(response.status).toBe(503);
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(JSON.parse(await response.text())).toEqual({
      error: {
        message: 'The engine is currently overloaded, please try again later.',
        type: 'server_error',
        param: null,
        code: 'server_is_overloaded',
      },
    });
    const run = await runThroughSdk({ dialect: 'openai', action: { type: 'http_error', status: 529 } });
    expect(run.error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(run.error).toMatchObject({ status: 503, code: 'server_is_overloaded' });
  });

  it('429 carries retry-after and/or retry-after-ms exactly as the rule says', async () => {
    const both = await rawFaulted('openai', {
      type: 'http_error',
      status: 429,
      retryAfterSec: 2,
      retryAfterMs: 1500,
    }).call();
    expect(both.headers.get('retry-after')).toBe('2');
    expect(both.headers.get('retry-after-ms')).toBe('1500');
    expect(both.headers.get('x-ratelimit-remaining-tokens')).toBe('63');
    expect(JSON.parse(await both.text()).error).toMatchObject({
      type: 'tokens',
      code: 'rate_limit_exceeded',
    });
    const none = await rawFaulted('anthropic', { type: 'http_error', status: 429 }).call();
    expect(none.headers.get('retry-after')).toBeNull();

    const run = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'http_error', status: 429, retryAfterSec: 7 },
    });
    expect(run.error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((run.error as AnthropicAPIError).headers?.get('retry-after')).toBe('7');
    expect((run.error as AnthropicAPIError).message).toContain(
      'This request would exceed the rate limit for your organization',
    );
  });

  it('401 uses the vendors’ wordings and never echoes the key', async () => {
    const a = await runThroughSdk({ dialect: 'anthropic', action: { type: 'http_error', status: 401 } });
    expect(a.error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(a.error).toMatchObject({ type: 'authentication_error', apiMessage: 'invalid x-api-key' });
    const o = await runThroughSdk({ dialect: 'openai', action: { type: 'http_error', status: 401 } });
    expect(o.error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((o.error as Error).message).toMatch(/^401 Incorrect API key provided: sk-\*\*\*\*\./);
    expect(o.error).toMatchObject({ code: 'invalid_api_key' });
  });

  it('Anthropic 413 is Cloudflare’s bare body; 404 quotes the model', async () => {
    const big = await rawFaulted('anthropic', { type: 'http_error', status: 413 }).call();
    expect(await big.text()).toBe(
      '{"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}',
    );
    const missing = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'http_error', status: 404 },
    });
    expect(missing.error).toMatchObject({
      status: 404,
      type: 'not_found_error',
      apiMessage: 'model: claude-loop-lab-test',
    });
  });

  it('proxy_error: an nginx HTML page (CRLF) or an Envoy text line, surfaced by the SDK as a bodiless status error', async () => {
    const html = await rawFaulted('anthropic', { type: 'proxy_error', status: 502, body: 'html' }).call();
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(await html.text()).toBe(
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    );
    const run = await runThroughSdk({
      dialect: 'openai',
      action: { type: 'proxy_error', status: 503, body: 'text' },
    });
    expect(run.error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((run.error as Error).message).toBe(
      '503 upstream connect error or disconnect/reset before headers. reset reason: connection termination',
    );
  });

  it('connection refused / reset reject like undici, and the SDKs wrap them as connection errors', async () => {
    const refused = rawFaulted('anthropic', { type: 'connection', mode: 'refused' });
    const error = await refused.call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED', syscall: 'connect', port: 443 },
    });
    for (const dialect of ['anthropic', 'openai'] as const) {
      const run = await runThroughSdk({ dialect, action: { type: 'connection', mode: 'reset' } });
      expect((run.error as Error).constructor.name).toBe('APIConnectionError');
      expect(run.error).toMatchObject({ cause: { message: 'fetch failed', cause: { code: 'ECONNRESET' } } });
    }
  });

  it('an already-aborted request rejects with the signal’s reason and injects nothing', async () => {
    const { injections } = rawFaulted('anthropic', { type: 'http_error', status: 500 });
    const inner = cannedSseFetch({ sse: '' });
    const fetch = withFaults({
      fetch: inner,
      dialect: 'anthropic',
      plan: () => ({ rules: [], tools: [] }),
      clock: new VirtualClock(),
      random: createRandom(1),
      onInject: () => undefined,
    });
    const reason = new DOMException('gone', 'AbortError');
    await expect(fetch('http://x/v1/messages', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(injections).toEqual([]);
  });
});
