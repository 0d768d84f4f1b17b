/** What a simulated vendor needs from a fetch call, whichever form the caller used. */
export interface SimRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string;
  signal: AbortSignal | undefined;
}

export async function readFetchInput(options: { input: string | URL | Request; init?: RequestInit }): Promise<SimRequest> {
  const { input, init } = options;
  const request = input instanceof Request ? input : undefined;
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const headers = new Headers(init?.headers ?? request?.headers);
  let body = '';
  if (init?.body != null) body = await new Response(init.body).text();
  else if (request) body = await request.text();
  return {
    method: (init?.method ?? request?.method ?? 'GET').toUpperCase(),
    path: url.pathname.replace(/\/+$/, ''),
    headers,
    body,
    signal: init?.signal ?? request?.signal ?? undefined,
  };
}
