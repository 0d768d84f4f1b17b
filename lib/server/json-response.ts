import 'server-only';
import type { z } from 'zod';

/**
 * A JSON response whose body is checked against its endpoint's schema at compile time
 * (lib/protocol/http): the handler states the shape it promises, the browser parses the same
 * schema. No runtime parse here; the route tests parse every response.
 */
export function jsonResponse<S extends z.ZodType>(
  _schema: S,
  body: z.output<S>,
  init: ResponseInit = {},
): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  return Response.json(body, { ...init, headers });
}
