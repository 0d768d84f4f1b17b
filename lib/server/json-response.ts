import 'server-only';
import type { z } from 'zod';

/** Next's compression (`compress`, on by default) leaves a body shorter than this as it is, when it knows the length. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * A JSON response whose body is checked against its endpoint's schema at compile time
 * (lib/protocol/http): the handler states the shape it promises, the browser parses the same
 * schema. No runtime parse here; the route tests parse every response.
 *
 * A body under COMPRESSION_THRESHOLD_BYTES is sent with `Cache-Control: no-transform`: Next
 * drops a route's Content-Length (next/dist/server/send-response.js), so its compression cannot
 * see that the body is below its threshold and gzips every answer; for a small one — a POST
 * /api/runs answer is about 60 bytes — a gzip stream costs more than it saves (measured in the
 * load bench: 7 % of the main thread during a burst of 100 POSTs). Larger bodies are compressed.
 */
export function jsonResponse<S extends z.ZodType>(
  _schema: S,
  body: z.output<S>,
  init: ResponseInit = {},
): Response {
  const text = JSON.stringify(body);
  const headers = new Headers(init.headers);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  if (Buffer.byteLength(text) < COMPRESSION_THRESHOLD_BYTES)
    headers.set('Cache-Control', `${headers.get('Cache-Control')}, no-transform`);
  headers.set('Content-Type', 'application/json');
  return new Response(text, { ...init, headers });
}
