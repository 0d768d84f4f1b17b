import 'server-only';
import type { z } from 'zod';

/**
 * A JSON response whose body is checked against its endpoint's schema at compile time
 * (lib/protocol/http): the handler states the shape it promises, the browser parses the same
 * schema. No runtime parse here; the route tests parse every response.
 *
 * The body is sent with its Content-Length, so Next's compression leaves a body under its
 * threshold (1 kB) as it is: without a length it gzips every answer, and for a small one — a
 * POST /api/runs answer is about 60 bytes — a gzip stream costs more than it saves (measured in
 * the load bench: 7 % of the main thread during a burst of 100 POSTs). Larger bodies are still
 * compressed.
 */
export function jsonResponse<S extends z.ZodType>(
  _schema: S,
  body: z.output<S>,
  init: ResponseInit = {},
): Response {
  const text = JSON.stringify(body);
  const headers = new Headers(init.headers);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  headers.set('Content-Type', 'application/json');
  headers.set('Content-Length', String(Buffer.byteLength(text)));
  return new Response(text, { ...init, headers });
}
