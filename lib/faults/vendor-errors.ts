import type { Dialect } from '@/lib/protocol';

/**
 * The vendors' own error bodies, wordings taken from recorded traffic and the vendors'
 * docs (docs/reference wire-formats §2, §3.5), so the SDK under test parses a faulted
 * response exactly as it would parse a bad day in production.
 */
export interface VendorError {
  /** The status actually sent (an OpenAI-dialect 529 goes out as its 503 overload). */
  status: number;
  type: string;
  code: string | null;
  message: string;
  headers: Record<string, string>;
}

const ORG_UUID = '5f3c2a71-0d4e-4b8a-9c61-7e2f0a9b3d14';

const ANTHROPIC: Record<number, [type: string, message: string]> = {
  400: ['invalid_request_error', 'There was an issue with the format or content of your request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'model: {model}'],
  408: ['timeout_error', 'Request timed out'],
  409: ['conflict_error', 'The request conflicts with the current state of the resource.'],
  413: ['request_too_large', 'Request exceeds the maximum size'],
  429: [
    'rate_limit_error',
    `This request would exceed the rate limit for your organization (${ORG_UUID}) of 40,000 input tokens per minute. ` +
      'For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for ' +
      'current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.',
  ],
  500: ['api_error', 'Internal server error'],
  502: ['api_error', 'Internal server error'],
  503: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

const OPENAI_OVERLOADED = 'The engine is currently overloaded, please try again later.';

const OPENAI: Record<number, [type: string, code: string | null, message: string]> = {
  400: ['invalid_request_error', null, 'Invalid request: the request body is not valid for this endpoint.'],
  401: [
    'invalid_request_error',
    'invalid_api_key',
    // Never echo the caller's key: this text lands in the run log.
    'Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys.',
  ],
  403: ['invalid_request_error', null, 'You have insufficient permissions for this operation.'],
  404: ['invalid_request_error', 'model_not_found', 'The model `{model}` does not exist or you do not have access to it.'],
  408: ['invalid_request_error', null, 'Request timed out.'],
  409: ['invalid_request_error', null, 'The request conflicts with the current state of the resource.'],
  413: ['invalid_request_error', 'request_too_large', 'Request too large.'],
  429: [
    'tokens',
    'rate_limit_exceeded',
    'Rate limit reached for {model} in organization org-looplab on tokens per min (TPM): Limit 30000, Used 29937, ' +
      'Requested 385. Please try again in 644ms. Visit https://platform.openai.com/account/rate-limits to learn more.',
  ],
  500: ['server_error', null, 'The server had an error while processing your request'],
  502: ['server_error', null, 'Bad gateway.'],
  503: ['server_error', 'server_is_overloaded', OPENAI_OVERLOADED],
  504: ['server_error', null, 'Gateway timeout.'],
};

/** The vendor's error for an HTTP status, with the headers that travel with it. */
export function vendorHttpError(options: { dialect: Dialect; status: number; model: string }): VendorError {
  const { dialect, model } = options;
  if (dialect === 'anthropic') {
    const [type, message] = ANTHROPIC[options.status] ?? ANTHROPIC[500]!;
    const headers: Record<string, string> = {};
    if (options.status === 429) {
      headers['anthropic-ratelimit-input-tokens-limit'] = '40000';
      headers['anthropic-ratelimit-input-tokens-remaining'] = '0';
    }
    if (options.status === 529) headers['x-should-retry'] = 'true';
    return { status: options.status, type, code: null, message: message.replace('{model}', model), headers };
  }
  // OpenAI has no 529: its overload is a 503 with the engine-overloaded wording.
  const status = options.status === 529 ? 503 : options.status;
  const [type, code, message] = OPENAI[status] ?? OPENAI[500]!;
  const headers: Record<string, string> = {};
  if (status === 429) {
    Object.assign(headers, {
      'x-ratelimit-limit-requests': '5000',
      'x-ratelimit-remaining-requests': '4999',
      'x-ratelimit-reset-requests': '12ms',
      'x-ratelimit-limit-tokens': '30000',
      'x-ratelimit-remaining-tokens': '63',
      'x-ratelimit-reset-tokens': '644ms',
    });
  }
  return { status, type, code, message: message.replace('{model}', model), headers };
}

/** The JSON body text of an HTTP error, in the dialect's shape. */
export function vendorErrorBody(options: { dialect: Dialect; error: VendorError; requestId: string }): string {
  const { dialect, error, requestId } = options;
  if (dialect === 'anthropic') {
    // A 413 is answered by Cloudflare before the API: no `type:"error"`, no request id.
    if (error.status === 413) return JSON.stringify({ error: { type: error.type, message: error.message } });
    return JSON.stringify({ type: 'error', error: { type: error.type, message: error.message }, request_id: requestId });
  }
  return JSON.stringify({ error: { message: error.message, type: error.type, param: null, code: error.code } });
}

export type InStreamErrorType = 'overloaded_error' | 'api_error' | 'rate_limit_error';

/**
 * The error record a vendor sends inside a 200 stream, after which it closes the
 * connection. Anthropic: `event: error`; OpenAI Chat: a bare `data: {"error":…}`;
 * OpenAI Responses: `event: error` with the error nested (the observed wire form).
 */
export function inStreamErrorRecord(options: {
  dialect: Dialect;
  errorType: InStreamErrorType;
  framing: 'chat' | 'responses';
  sequenceNumber: number;
  model: string;
}): string {
  const { dialect, errorType, model } = options;
  if (dialect === 'anthropic') {
    const status = errorType === 'overloaded_error' ? 529 : errorType === 'rate_limit_error' ? 429 : 500;
    const { type, message } = vendorHttpError({ dialect, status, model });
    return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
  }
  const status = errorType === 'overloaded_error' ? 503 : errorType === 'rate_limit_error' ? 429 : 500;
  const { type, code, message } = vendorHttpError({ dialect, status, model });
  if (options.framing === 'responses') {
    const body = { type: 'error', sequence_number: options.sequenceNumber, error: { type, code, message, param: null } };
    return `event: error\ndata: ${JSON.stringify(body)}\n\n`;
  }
  return `data: ${JSON.stringify({ error: { message, type, param: null, code } })}\n\n`;
}
