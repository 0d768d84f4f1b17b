/**
 * Anthropic Messages' error bodies, the one copy: the HTTP error table the
 * fault injector sends, the body shape the simulated vendor refuses a request with, and the
 * `event: error` record inside a 200 stream. Wordings from recorded traffic and the docs.
 */

/** The header a response carries its request id in. */
export const ANTHROPIC_REQUEST_ID_HEADER = 'request-id';

const ORG_UUID = '5f3c2a71-0d4e-4b8a-9c61-7e2f0a9b3d14';

/** Anthropic's answer when the account's credit is spent: a 400, not a 429 (no wait fixes it). */
export const ANTHROPIC_CREDIT_TOO_LOW =
  'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.';

/** Status → [error type, message]; `{model}` is replaced by the requested model. */
export const ANTHROPIC_HTTP_ERRORS: Readonly<Record<number, readonly [type: string, message: string]>> = {
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

/** `{"type":"error","error":{type,message},"request_id"}`; a 413 comes from Cloudflare in front: no envelope, no id. */
export function anthropicErrorBody(options: {
  type: string;
  message: string;
  requestId?: string;
  status?: number;
}): Record<string, unknown> {
  const error = { type: options.type, message: options.message };
  if (options.status === 413) return { error };
  return {
    type: 'error',
    error,
    ...(options.requestId !== undefined ? { request_id: options.requestId } : {}),
  };
}

/** The record a 200 stream ends with when the vendor fails mid-answer, after which it closes. */
export function anthropicStreamError(options: { type: string; message: string }): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: options.type, message: options.message } })}\n\n`;
}
