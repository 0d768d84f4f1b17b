import type { VendorRejection } from '../rejection';

/** Anthropic's error body: `{"type":"error","error":{type,message},"request_id"}` (wire-formats §2.2). */
export function anthropicErrorResponse(options: { rejection: VendorRejection; requestId: string }): Response {
  const { rejection, requestId } = options;
  const body = JSON.stringify(anthropicErrorBody({ rejection, requestId }));
  return new Response(body, {
    status: rejection.status,
    headers: { 'content-type': 'application/json', 'request-id': requestId },
  });
}

export function anthropicErrorBody(options: { rejection: VendorRejection; requestId: string }): Record<string, unknown> {
  const { rejection, requestId } = options;
  return { type: 'error', error: { type: rejection.type, message: rejection.message }, request_id: requestId };
}
