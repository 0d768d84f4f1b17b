import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { runThroughSdk } from '@/lib/faults/testing/sdk-harness';
import type { Dialect, FaultAction } from '@/lib/protocol';
import { classifyError, type Classification } from './classify';

/**
 * The classifier on real SDK error objects: each fault goes through withFaults and the
 * vendor SDK, and whatever the SDK throws is classified.
 */
const CASES: Array<[Exclude<Dialect, 'responses'>, FaultAction, Partial<Classification>]> = [
  [
    'anthropic',
    { type: 'http_error', status: 529 },
    {
      category: 'overloaded',
      rule: 'vendor type overloaded_error',
      retryable: true,
      status: 529,
      vendorType: 'overloaded_error',
      message: 'Overloaded',
    },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 429, retryAfterSec: 7 },
    {
      category: 'rate_limit',
      rule: 'vendor type rate_limit_error',
      retryable: true,
      status: 429,
      retryAfterMs: 7_000,
    },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 401 },
    {
      category: 'authentication',
      rule: 'vendor type authentication_error',
      retryable: false,
      message: 'invalid x-api-key',
    },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 403 },
    { category: 'authorization', rule: 'vendor type permission_error', retryable: false },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 400 },
    { category: 'invalid_input', rule: 'status 400', retryable: false, vendorType: 'invalid_request_error' },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 404 },
    { category: 'invalid_input', rule: 'vendor type not_found_error', retryable: false },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 408 },
    { category: 'timeout', rule: 'vendor type timeout_error', retryable: true },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 409 },
    { category: 'state', rule: 'vendor type conflict_error', retryable: true },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 413 },
    { category: 'invalid_input', rule: 'vendor type request_too_large', retryable: false },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 500 },
    { category: 'internal', rule: 'status 500', retryable: true, vendorType: 'api_error' },
  ],
  [
    'anthropic',
    { type: 'http_error', status: 504 },
    { category: 'timeout', rule: 'vendor type timeout_error', retryable: true },
  ],
  [
    'openai',
    { type: 'http_error', status: 529 },
    { category: 'overloaded', rule: 'vendor code server_is_overloaded', retryable: true, status: 503 },
  ],
  [
    'openai',
    { type: 'http_error', status: 503 },
    { category: 'overloaded', rule: 'vendor code server_is_overloaded', retryable: true, status: 503 },
  ],
  [
    'openai',
    { type: 'http_error', status: 429, retryAfterMs: 1_500, retryAfterSec: 9 },
    { category: 'rate_limit', rule: 'vendor code rate_limit_exceeded', retryable: true, retryAfterMs: 1_500 },
  ],
  [
    'openai',
    { type: 'http_error', status: 401 },
    { category: 'authentication', rule: 'vendor code invalid_api_key', retryable: false },
  ],
  [
    'openai',
    { type: 'http_error', status: 403 },
    { category: 'authorization', rule: 'status 403', retryable: false },
  ],
  [
    'openai',
    { type: 'http_error', status: 400 },
    { category: 'invalid_input', rule: 'status 400', retryable: false },
  ],
  [
    'openai',
    { type: 'http_error', status: 404 },
    { category: 'invalid_input', rule: 'vendor code model_not_found', retryable: false },
  ],
  ['openai', { type: 'http_error', status: 409 }, { category: 'state', rule: 'status 409', retryable: true }],
  [
    'openai',
    { type: 'http_error', status: 500 },
    { category: 'internal', rule: 'status 500', retryable: true },
  ],
  [
    'openai',
    { type: 'http_error', status: 502 },
    { category: 'internal', rule: 'status 502', retryable: true },
  ],
  [
    'openai',
    { type: 'http_error', status: 504 },
    { category: 'timeout', rule: 'status 504', retryable: true },
  ],
  [
    'anthropic',
    { type: 'proxy_error', status: 502, body: 'html' },
    { category: 'internal', rule: 'status 502', retryable: true, status: 502 },
  ],
  [
    'openai',
    { type: 'proxy_error', status: 503, body: 'text' },
    { category: 'internal', rule: 'status 503', retryable: true },
  ],
  [
    'openai',
    { type: 'proxy_error', status: 504, body: 'html' },
    { category: 'timeout', rule: 'status 504', retryable: true },
  ],
  [
    'anthropic',
    { type: 'connection', mode: 'refused' },
    {
      category: 'network',
      rule: 'code ECONNREFUSED',
      retryable: true,
      message: 'Connection error. (connect ECONNREFUSED x:80)',
    },
  ],
  [
    'openai',
    { type: 'connection', mode: 'reset' },
    { category: 'network', rule: 'code ECONNRESET', retryable: true },
  ],
  [
    'anthropic',
    { type: 'drop', during: 'text' },
    {
      category: 'network',
      rule: 'code UND_ERR_SOCKET',
      retryable: true,
      message: 'terminated (other side closed)',
    },
  ],
  [
    'openai',
    { type: 'drop', afterEvents: 3 },
    { category: 'network', rule: 'code UND_ERR_SOCKET', retryable: true },
  ],
  [
    'anthropic',
    { type: 'sse_error', afterEvents: 2, errorType: 'overloaded_error' },
    {
      category: 'overloaded',
      rule: 'vendor type overloaded_error',
      retryable: true,
      vendorType: 'overloaded_error',
    },
  ],
  [
    'anthropic',
    { type: 'sse_error', afterEvents: 2, errorType: 'api_error' },
    { category: 'internal', rule: 'vendor type api_error', retryable: true },
  ],
  [
    'anthropic',
    { type: 'sse_error', afterEvents: 2, errorType: 'rate_limit_error' },
    { category: 'rate_limit', rule: 'vendor type rate_limit_error', retryable: true },
  ],
  [
    'openai',
    { type: 'sse_error', afterEvents: 2, errorType: 'overloaded_error' },
    { category: 'overloaded', rule: 'vendor code server_is_overloaded', retryable: true },
  ],
  [
    'openai',
    { type: 'sse_error', afterEvents: 2, errorType: 'api_error' },
    { category: 'internal', rule: 'vendor type server_error', retryable: true },
  ],
  [
    'anthropic',
    { type: 'malformed', afterEvents: 1 },
    { category: 'parse', rule: 'SyntaxError', retryable: true },
  ],
  [
    'openai',
    { type: 'malformed', afterEvents: 1 },
    { category: 'parse', rule: 'SyntaxError', retryable: true },
  ],
];

describe('classifyError on errors thrown by the real SDKs', () => {
  it.each(CASES)('%s %o', async (dialect, action, expected) => {
    const run = await runThroughSdk({ dialect, action });
    expect(run.error).toBeDefined();
    const verdict = classifyError(run.error);
    expect(verdict).toMatchObject(expected);
    if (!('status' in expected)) {
      if (action.type === 'http_error' || action.type === 'proxy_error')
        expect(verdict.status).toBeGreaterThanOrEqual(400);
      else expect(verdict.status).toBeUndefined();
    }
  });

  it('in-stream errors carry no status but the vendor type (stack-notes)', async () => {
    const run = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'sse_error', afterEvents: 0, errorType: 'overloaded_error' },
    });
    expect(run.error).toBeInstanceOf(Anthropic.APIError);
    expect(classifyError(run.error)).toEqual({
      category: 'overloaded',
      rule: 'vendor type overloaded_error',
      retryable: true,
      vendorType: 'overloaded_error',
      message: 'Overloaded',
    });
  });
});

/** Bodies the fault wrapper does not produce, built by the SDKs' own error factory. */
describe('classifyError on SDK-generated errors for vendor bodies', () => {
  const anthropic = (status: number, type: string, message: string, headers: Record<string, string> = {}) =>
    Anthropic.APIError.generate(
      status,
      { type: 'error', error: { type, message }, request_id: 'req_1' },
      undefined,
      new Headers(headers),
    );
  const openai = (status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) =>
    OpenAI.APIError.generate(
      status,
      { error: { param: null, code: null, ...error } },
      undefined,
      new Headers(headers),
    );

  it('context overflow goes to its own channel, never retried', () => {
    expect(
      classifyError(
        anthropic(400, 'invalid_request_error', 'prompt is too long: 200251 tokens > 200000 maximum'),
      ),
    ).toMatchObject({
      category: 'context_length',
      rule: "text: 'prompt is too long'",
      retryable: false,
    });
    expect(
      classifyError(
        anthropic(
          400,
          'invalid_request_error',
          'input length and `max_tokens` exceed context limit: 198000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
        ),
      ),
    ).toMatchObject({ category: 'context_length', retryable: false });
    expect(
      classifyError(
        openai(400, {
          type: 'invalid_request_error',
          code: 'context_length_exceeded',
          param: 'messages',
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
        }),
      ),
    ).toMatchObject({
      category: 'context_length',
      rule: 'vendor code context_length_exceeded',
      retryable: false,
    });
  });

  it('quota and spend caps are rate limits that waiting will not fix', () => {
    expect(
      classifyError(
        openai(429, {
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          message: 'You exceeded your current quota, please check your plan and billing details.',
        }),
      ),
    ).toMatchObject({ category: 'rate_limit', rule: 'vendor code insufficient_quota', retryable: false });
    expect(
      classifyError(
        anthropic(429, 'rate_limit_error', 'You have reached your specified workspace API usage limits.'),
      ),
    ).toMatchObject({
      category: 'rate_limit',
      rule: "vendor type rate_limit_error + text: 'usage limit'",
      retryable: false,
    });
    expect(
      classifyError(
        openai(429, {
          type: 'tokens',
          code: 'rate_limit_exceeded',
          message:
            'Request too large for gpt-4o in organization org-1 on tokens per min (TPM): Limit 30000, Requested 31538. The input or output tokens must be reduced in order to run successfully.',
        }),
      ),
    ).toMatchObject({ category: 'rate_limit', retryable: false });
  });

  it('reasoning-credential mismatches are invalid input', () => {
    expect(
      classifyError(
        anthropic(
          400,
          'invalid_request_error',
          'messages.1.content.0: Invalid `signature` in `thinking` block',
        ),
      ),
    ).toMatchObject({
      category: 'invalid_input',
      rule: 'status 400',
      retryable: false,
    });
    expect(
      classifyError(
        openai(400, {
          type: 'invalid_request_error',
          code: 'invalid_encrypted_content',
          message: 'The encrypted content gAAA== could not be verified.',
        }),
      ),
    ).toMatchObject({ category: 'invalid_input', rule: 'vendor code invalid_encrypted_content' });
  });

  it('the SDK’s own timeout and the caller’s abort', () => {
    expect(classifyError(new Anthropic.APIConnectionTimeoutError())).toMatchObject({
      category: 'timeout',
      rule: 'APIConnectionTimeoutError',
      retryable: true,
    });
    expect(classifyError(new OpenAI.APIUserAbortError())).toMatchObject({
      category: 'unknown',
      rule: 'aborted by the caller',
      retryable: false,
    });
  });
});
