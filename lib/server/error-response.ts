import 'server-only';
import { ZodError } from 'zod';
import { describeIssues } from '@/lib/protocol';
import { ErrorBodySchema, type ErrorBody } from '@/lib/protocol/http';
import { redactPieces } from '@/lib/cassettes';
import { HttpError, RoomLimitError } from './http-error';
import { jsonResponse } from './json-response';
import { knownKeysRedactor, requestKeys } from './request-keys';
import { processEnv } from '@/lib/config/server-env';
import { runSecrets } from '@/lib/runtime/redact-secrets';

export type { ErrorBody };

/**
 * An error body, with every key the server knows taken out of it: an error may quote what a
 * request sent (a property name, a path segment, a piece of a body that is not JSON), and a
 * request can put a key anywhere. Whole keys in every form the run log's redaction knows, and
 * pieces of one (a parser quotes the first characters of what it could not read).
 */
export function jsonError({ status, error, details, limit }: { status: number } & ErrorBody): Response {
  const redactor = knownKeysRedactor();
  const keys = [...runSecrets({ env: processEnv() }), ...requestKeys()];
  const clean = (text: string) => redactPieces(redactor.text(text), keys);
  const body: ErrorBody = {
    error: clean(error),
    ...(details && details.length > 0 ? { details: details.map(clean) } : {}),
    ...(limit ? { limit } : {}),
  };
  const retryAfter = limit?.retryAfterSeconds;
  return jsonResponse(ErrorBodySchema, body, {
    status,
    ...(retryAfter !== undefined ? { headers: { 'Retry-After': String(retryAfter) } } : {}),
  });
}

/**
 * Turns anything a handler threw into a JSON response: HttpError as it says, a zod error as
 * a 400 naming each bad field, anything else as a 500 whose cause stays in the server log.
 */
export function errorResponse(error: unknown): Response {
  if (error instanceof RoomLimitError) {
    return jsonError({ status: 429, error: error.message, limit: error.limit });
  }
  if (error instanceof HttpError) {
    return jsonError({ status: error.status, error: error.message, details: error.details });
  }
  if (error instanceof ZodError) {
    return jsonError({ status: 400, error: 'The request is invalid', details: describeIssues(error) });
  }
  // Only the message and stack, with the keys taken out: request bodies (which may hold a key)
  // are never logged, but an SDK or vendor message may quote one.
  const redactor = knownKeysRedactor();
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error('[loop-lab] unhandled error in a route handler:', redactor.text(text));
  return jsonError({ status: 500, error: 'Internal server error; the server log has the details' });
}
