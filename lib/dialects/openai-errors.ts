/**
 * OpenAI's error bodies, the one copy for every OpenAI endpoint (Chat Completions, the Responses
 * API, the DeepSeek-style reasoning endpoint, plain OpenAI-compatible servers): the
 * HTTP error table the fault injector sends, the body shape the simulated vendor refuses a
 * request with, and the error records inside a 200 stream (Chat and Responses framing).
 */

/** The header a response carries its request id in. */
export const OPENAI_REQUEST_ID_HEADER = 'x-request-id';

export const OPENAI_OVERLOADED = 'The engine is currently overloaded, please try again later.';

/** The 429 of a spent quota (type and code `insufficient_quota`): no wait fixes it. */
export const OPENAI_INSUFFICIENT_QUOTA =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';

/** Status → [error type, code, message]; `{model}` is replaced by the requested model. OpenAI has no 529. */
export const OPENAI_HTTP_ERRORS: Readonly<
  Record<number, readonly [type: string, code: string | null, message: string]>
> = {
  400: ['invalid_request_error', null, 'Invalid request: the request body is not valid for this endpoint.'],
  401: [
    'invalid_request_error',
    'invalid_api_key',
    // Never echo the caller's key: this text lands in the run log.
    'Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys.',
  ],
  403: ['invalid_request_error', null, 'You have insufficient permissions for this operation.'],
  404: [
    'invalid_request_error',
    'model_not_found',
    'The model `{model}` does not exist or you do not have access to it.',
  ],
  408: ['invalid_request_error', null, 'Request timed out.'],
  409: ['invalid_request_error', null, 'The request conflicts with the current state of the resource.'],
  413: ['invalid_request_error', 'request_too_large', 'Request too large.'],
  429: [
    'tokens',
    'rate_limit_exceeded',
    'Rate limit reached for {model} in organization org-looplab on tokens per min (TPM): Limit 30000, Used 29937, ' +
      'Requested 385. Please try again in 644ms. Visit https://platform.openai.com/account/rate-limits to learn more.',
  ],
  500: ['server_error', null, 'The server had an error while processing your request. Sorry about that!'],
  502: ['server_error', null, 'Bad gateway.'],
  503: ['server_error', 'server_is_overloaded', OPENAI_OVERLOADED],
  504: ['server_error', null, 'Gateway timeout.'],
};

/** `{"error":{message,type,param,code}}`. */
export function openaiErrorBody(options: {
  message: string;
  type: string;
  code?: string | null;
  param?: string | null;
}): Record<string, unknown> {
  return {
    error: {
      message: options.message,
      type: options.type,
      param: options.param ?? null,
      code: options.code ?? null,
    },
  };
}

/**
 * The record a 200 stream ends with when the vendor fails mid-answer: Chat Completions sends a
 * bare `data: {"error":…}`; the Responses API an `event: error` with the error nested (observed).
 */
export function openaiStreamError(options: {
  message: string;
  type: string;
  code: string | null;
  framing: 'chat' | 'responses';
  sequenceNumber: number;
}): string {
  const { message, type, code } = options;
  if (options.framing === 'responses') {
    const body = {
      type: 'error',
      sequence_number: options.sequenceNumber,
      error: { type, code, message, param: null },
    };
    return `event: error\ndata: ${JSON.stringify(body)}\n\n`;
  }
  return `data: ${JSON.stringify(openaiErrorBody({ message, type, code }))}\n\n`;
}
