import type { Dialect } from '@/lib/protocol';
import {
  ANTHROPIC_CREDIT_TOO_LOW,
  ANTHROPIC_HTTP_ERRORS,
  anthropicErrorBody,
  anthropicStreamError,
} from './anthropic-errors';
import {
  OPENAI_HTTP_ERRORS,
  OPENAI_INSUFFICIENT_QUOTA,
  openaiErrorBody,
  openaiStreamError,
} from './openai-errors';

/**
 * A vendor's error for an HTTP status in its wire dialect, from the one table per dialect
 * (anthropic-errors.ts, openai-errors.ts): what the fault injector sends, what the simulated
 * vendors answer with, so the SDK parses a faulted response exactly as a bad day in production.
 */
export interface VendorError {
  /** The status actually sent (an OpenAI-dialect 529 goes out as its 503 overload). */
  status: number;
  type: string;
  code: string | null;
  message: string;
  headers: Record<string, string>;
}

/**
 * The vendor's error for an HTTP status, with the headers that travel with it. `quota`: a 429
 * that is the account's spent quota or credit, as each vendor words it.
 */
export function vendorHttpError(options: {
  dialect: Dialect;
  status: number;
  model: string;
  quota?: boolean;
}): VendorError {
  const { dialect, model } = options;
  if (options.quota && options.status === 429) {
    return dialect === 'anthropic'
      ? {
          status: 400,
          type: 'invalid_request_error',
          code: null,
          message: ANTHROPIC_CREDIT_TOO_LOW,
          headers: {},
        }
      : {
          status: 429,
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          message: OPENAI_INSUFFICIENT_QUOTA,
          headers: {},
        };
  }
  if (dialect === 'anthropic') {
    const [type, message] = ANTHROPIC_HTTP_ERRORS[options.status] ?? ANTHROPIC_HTTP_ERRORS[500]!;
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
  const [type, code, message] = OPENAI_HTTP_ERRORS[status] ?? OPENAI_HTTP_ERRORS[500]!;
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
export function vendorErrorBody(options: {
  dialect: Dialect;
  error: VendorError;
  requestId: string;
}): string {
  const { dialect, error, requestId } = options;
  if (dialect === 'anthropic')
    return JSON.stringify(
      anthropicErrorBody({ type: error.type, message: error.message, requestId, status: error.status }),
    );
  return JSON.stringify(openaiErrorBody({ message: error.message, type: error.type, code: error.code }));
}

export type InStreamErrorType = 'overloaded_error' | 'api_error' | 'rate_limit_error';

/** The error record a vendor sends inside a 200 stream, after which it closes the connection. */
export function inStreamErrorRecord(options: {
  dialect: Dialect;
  errorType: InStreamErrorType;
  framing: 'chat' | 'responses';
  sequenceNumber: number;
  model: string;
  /** The Responses API: which event carries the failure (default its `error` event), and the id of the response it ends. */
  responsesEvent?: 'error' | 'response.failed';
  responseId?: string;
}): string {
  const { dialect, errorType, model } = options;
  if (dialect === 'anthropic') {
    const status = errorType === 'overloaded_error' ? 529 : errorType === 'rate_limit_error' ? 429 : 500;
    const { type, message } = vendorHttpError({ dialect, status, model });
    return anthropicStreamError({ type, message });
  }
  const status = errorType === 'overloaded_error' ? 503 : errorType === 'rate_limit_error' ? 429 : 500;
  const { type, code, message } = vendorHttpError({ dialect, status, model });
  if (options.framing === 'responses' && options.responsesEvent === 'response.failed') {
    return responseFailedRecord({
      code: errorType === 'rate_limit_error' ? 'rate_limit_exceeded' : 'server_error',
      message,
      model,
      sequenceNumber: options.sequenceNumber,
      responseId: options.responseId ?? 'resp_unknown',
    });
  }
  return openaiStreamError({
    message,
    type,
    code,
    framing: options.framing,
    sequenceNumber: options.sequenceNumber,
  });
}

/**
 * The Responses API's `response.failed` event: the response as it stood, ended with status
 * failed and the failure as `response.error` {code, message}; the stream closes after it.
 */
function responseFailedRecord(options: {
  code: string;
  message: string;
  model: string;
  sequenceNumber: number;
  responseId: string;
}): string {
  const body = {
    type: 'response.failed',
    sequence_number: options.sequenceNumber,
    response: {
      id: options.responseId,
      object: 'response',
      created_at: 0,
      status: 'failed',
      error: { code: options.code, message: options.message },
      incomplete_details: null,
      instructions: null,
      model: options.model,
      output: [],
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      usage: null,
    },
  };
  return `event: response.failed\ndata: ${JSON.stringify(body)}\n\n`;
}
