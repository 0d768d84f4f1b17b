import { describe, expect, it } from 'vitest';
import { classifyError, isRetryableCategory } from './classify';
import { isBackgroundRetryable } from './background';

describe('classifyError: text heuristics (errors that arrive as strings)', () => {
  it.each([
    ['processed 1429 tokens before the socket closed', 'network', "text: 'socket'"],
    ['used 1429 tokens', 'unknown', 'no rule matched'],
    ['HTTP 429 Too Many Requests', 'rate_limit', "text: 'too many requests'"],
    ['upstream said 429', 'rate_limit', 'text: status 429'],
    ['error 5290 in module', 'unknown', 'no rule matched'],
    ['Error: 529 {"type":"error"}', 'overloaded', 'text: status 529'],
    ['The engine is currently overloaded, please try again later.', 'overloaded', "text: 'overloaded'"],
    ['request failed (503 Service Unavailable)', 'internal', "text: 'service unavailable'"],
    ['Prompt is too long: 200251 tokens > 200000 maximum', 'context_length', "text: 'prompt is too long'"],
    ['Your input exceeds the context window of this model.', 'context_length', "text: 'context window'"],
    ['invalid x-api-key', 'authentication', "text: 'invalid x-api-key'"],
    ['Incorrect API key provided: sk-****', 'authentication', "text: 'incorrect api key'"],
    ['permission denied for this model', 'authorization', "text: 'permission'"],
    [
      'You exceeded your current quota, please check your plan and billing details.',
      'rate_limit',
      "text: 'exceeded your current quota'",
    ],
    // CodeSmith's classifier files any "quota" with rate limits.
    ['Quota exceeded for requests per minute', 'rate_limit', "text: 'quota'"],
    ['connect ECONNREFUSED 127.0.0.1:443', 'network', "text: 'econnrefused'"],
    ['request timed out', 'timeout', "text: 'timed out'"],
    ['409 Conflict', 'state', "text: 'conflict'"],
    ['<html><head><title>502 Bad Gateway</title></head></html>', 'internal', "text: '<html'"],
    ['Unexpected end of JSON input', 'parse', "text: 'unexpected end of json'"],
    ['404 page not found', 'invalid_input', "text: 'not found'"],
  ])('%s → %s', (text, category, rule) => {
    expect(classifyError(new Error(text))).toMatchObject({ category, rule });
    expect(classifyError(text)).toMatchObject({ category, rule, message: text });
  });

  it('the whitelist: only auth, permission, context overflow and invalid input are final', () => {
    expect(classifyError('invalid x-api-key').retryable).toBe(false);
    expect(classifyError('permission denied').retryable).toBe(false);
    expect(classifyError('prompt is too long').retryable).toBe(false);
    expect(classifyError('exceeded your current quota').retryable).toBe(false);
    for (const text of [
      'rate limit',
      'overloaded',
      'timed out',
      'fetch failed',
      '409 conflict',
      'bad gateway',
      'what is this',
      'unexpected token',
    ]) {
      expect(classifyError(text).retryable, text).toBe(true);
    }
    expect(isRetryableCategory('invalid_input')).toBe(false);
    expect(isRetryableCategory('unknown')).toBe(true);
  });
});

describe('classifyError: the loop’s own timeouts and aborts', () => {
  it('the watchdog’s named TimeoutError, whatever its class', () => {
    class StreamIdleTimeout extends Error {
      override readonly name = 'TimeoutError';
    }
    expect(
      classifyError(new StreamIdleTimeout('stream idle timeout: no stream event for 120.0 s')),
    ).toMatchObject({
      category: 'timeout',
      rule: 'TimeoutError',
      retryable: true,
    });
    expect(classifyError(new DOMException('signal timed out', 'TimeoutError'))).toMatchObject({
      category: 'timeout',
      rule: 'TimeoutError',
    });
    expect(
      classifyError(new Error('aborted', { cause: new DOMException('x', 'TimeoutError') })),
    ).toMatchObject({ category: 'timeout' });
  });

  it('an abort names its reason: a timeout is retried, a plain abort is not', () => {
    expect(
      classifyError(new DOMException('The operation was aborted due to timeout', 'AbortError')),
    ).toMatchObject({
      category: 'timeout',
      rule: 'abort with a timeout reason',
      retryable: true,
    });
    expect(classifyError(new DOMException('This operation was aborted', 'AbortError'))).toMatchObject({
      category: 'unknown',
      rule: 'aborted by the caller',
      retryable: false,
    });
  });

  it('socket codes along the cause chain, and undici’s connect timeout', () => {
    const cause = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    expect(classifyError(new TypeError('fetch failed', { cause }))).toMatchObject({
      category: 'timeout',
      rule: 'code UND_ERR_CONNECT_TIMEOUT',
    });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(classifyError(new TypeError('fetch failed', { cause: reset }))).toMatchObject({
      category: 'network',
      rule: 'code ECONNRESET',
    });
  });

  it('reads status, vendor type and Retry-After from plain objects too (errors that crossed a boundary)', () => {
    const verdict = classifyError({
      status: 429,
      error: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
      headers: { 'Retry-After': '3' },
      message: 'x',
    });
    expect(verdict).toEqual({
      category: 'rate_limit',
      rule: 'vendor type rate_limit_error',
      retryable: true,
      status: 429,
      vendorType: 'rate_limit_error',
      message: 'slow down',
      retryAfterMs: 3_000,
    });
  });

  it('keeps a long proxy page to one bounded line', () => {
    const verdict = classifyError(new Error(`502 <html>\r\n${'x'.repeat(2_000)}</html>`));
    expect(verdict.message.length).toBeLessThanOrEqual(500);
    expect(verdict.message).not.toMatch(/\n/);
  });
});

describe('classifyError: why waiting cannot help (lasting)', () => {
  it('a spent quota is a rate limit that waiting does not fix; a plain rate limit is not lasting', () => {
    const quota = classifyError(
      Object.assign(new Error('You exceeded your current quota'), {
        status: 429,
        error: { code: 'insufficient_quota' },
      }),
    );
    expect(quota).toMatchObject({ category: 'rate_limit', lasting: 'spent_quota', retryable: false });
    const limited = classifyError(Object.assign(new Error('Rate limit reached'), { status: 429 }));
    expect(limited).toMatchObject({ category: 'rate_limit', retryable: true });
    expect(limited.lasting).toBeUndefined();
    const aborted = classifyError(Object.assign(new Error('Request was aborted.'), { name: 'AbortError' }));
    expect(aborted).toMatchObject({ category: 'unknown', lasting: 'aborted', retryable: false });
  });
});

describe('isBackgroundRetryable', () => {
  it('retries only network, rate limit and timeout', () => {
    expect(['network', 'rate_limit', 'timeout'].every((c) => isBackgroundRetryable(c as never))).toBe(true);
    for (const c of [
      'overloaded',
      'internal',
      'parse',
      'unknown',
      'authentication',
      'context_length',
    ] as const) {
      expect(isBackgroundRetryable(c)).toBe(false);
    }
  });
});
