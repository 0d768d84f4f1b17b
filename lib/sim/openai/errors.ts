import { OPENAI_REQUEST_ID_HEADER, openaiErrorBody as bodyOf } from '@/lib/dialects';
import type { VendorRejection } from '../rejection';

/** A refusal as OpenAI sends it: its error body (lib/dialects/openai-errors.ts) and request id. */
export function openaiErrorResponse(options: { rejection: VendorRejection; requestId: string }): Response {
  const { rejection, requestId } = options;
  const body = JSON.stringify(openaiErrorBody({ rejection }));
  return new Response(body, {
    status: rejection.status,
    headers: { 'content-type': 'application/json', [OPENAI_REQUEST_ID_HEADER]: requestId },
  });
}

export function openaiErrorBody(options: { rejection: VendorRejection }): Record<string, unknown> {
  const { rejection } = options;
  return bodyOf({
    message: rejection.message,
    type: rejection.type,
    param: rejection.param,
    code: rejection.code,
  });
}
