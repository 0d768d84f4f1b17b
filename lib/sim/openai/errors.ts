import type { VendorRejection } from '../rejection';

/** OpenAI's error body: `{"error":{message,type,param,code}}` (wire-formats §3.5). */
export function openaiErrorResponse(options: { rejection: VendorRejection; requestId: string }): Response {
  const { rejection, requestId } = options;
  const body = JSON.stringify(openaiErrorBody({ rejection }));
  return new Response(body, {
    status: rejection.status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
  });
}

export function openaiErrorBody(options: { rejection: VendorRejection }): Record<string, unknown> {
  const { rejection } = options;
  return { error: { message: rejection.message, type: rejection.type, param: rejection.param, code: rejection.code } };
}
