import { ANTHROPIC_REQUEST_ID_HEADER, anthropicErrorBody as bodyOf } from '@/lib/dialects';
import type { VendorRejection } from '../rejection';

/** A refusal as Anthropic sends it: its error body (lib/dialects/anthropic-errors.ts) and request id. */
export function anthropicErrorResponse(options: { rejection: VendorRejection; requestId: string }): Response {
  const { rejection, requestId } = options;
  const body = JSON.stringify(anthropicErrorBody({ rejection, requestId }));
  return new Response(body, {
    status: rejection.status,
    headers: { 'content-type': 'application/json', [ANTHROPIC_REQUEST_ID_HEADER]: requestId },
  });
}

export function anthropicErrorBody(options: {
  rejection: VendorRejection;
  requestId: string;
}): Record<string, unknown> {
  const { rejection, requestId } = options;
  return bodyOf({ type: rejection.type, message: rejection.message, requestId });
}
