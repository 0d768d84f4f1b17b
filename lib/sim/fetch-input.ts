/** What a simulated vendor needs from a fetch call, whichever form the caller used. */
export interface SimRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string;
  signal: AbortSignal | undefined;
}

/** ES2024's String.prototype.toWellFormed (Node 20 has it; the project's lib is ES2023). */
type WellFormable = string & { toWellFormed(): string };

export async function readFetchInput(options: {
  input: string | URL | Request;
  init?: RequestInit;
}): Promise<SimRequest> {
  const { input, init } = options;
  const request = input instanceof Request ? input : undefined;
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  // The SDKs hand over a Headers of their own; the vendor only reads it, so it is not copied.
  const given = init?.headers ?? request?.headers;
  const headers = given instanceof Headers ? given : new Headers(given);
  return {
    method: (init?.method ?? request?.method ?? 'GET').toUpperCase(),
    path: url.pathname.replace(/\/+$/, ''),
    headers,
    body: await bodyText(init?.body, request),
    signal: init?.signal ?? request?.signal ?? undefined,
  };
}

/**
 * The body as text, exactly as `new Response(body).text()` reads it. The SDKs send JSON as a
 * string, and for a string that reading is only the USVString conversion (a lone surrogate
 * becomes U+FFFD), so it is done directly instead of through a stream per request.
 */
async function bodyText(body: BodyInit | null | undefined, request: Request | undefined): Promise<string> {
  if (typeof body === 'string') return (body as WellFormable).toWellFormed();
  if (body != null) return new Response(body).text();
  return request ? request.text() : '';
}
