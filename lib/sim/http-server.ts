import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vendorErrorBody, vendorHttpError } from '@/lib/dialects';
import type { Dialect } from '@/lib/protocol';

export interface SimServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43123`. */
  url: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An internal failure in the vendor's own error shape, so clients classify it as a 500. */
function internalError(dialect: Dialect): string {
  return vendorErrorBody({
    dialect,
    error: vendorHttpError({ dialect, status: 500, model: '' }),
    requestId: 'req_internal',
  });
}

async function handle(options: {
  req: IncomingMessage;
  res: ServerResponse;
  base: string;
  dialect: Dialect;
  fetch: typeof fetch;
}): Promise<void> {
  const { req, res } = options;
  const aborter = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished)
      aborter.abort(new DOMException('The client closed the connection.', 'AbortError'));
  });
  const body = await readBody(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  let response: Response;
  try {
    // A request sent through this server as a proxy names its whole URL (absolute form): kept as is.
    const target = /^https?:\/\//i.test(req.url ?? '') ? req.url! : `${options.base}${req.url ?? '/'}`;
    response = await options.fetch(target, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      signal: aborter.signal,
    });
  } catch {
    if (!res.headersSent && !aborter.signal.aborted) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(internalError(options.dialect));
    }
    return;
  }
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  res.writeHead(response.status, outHeaders);
  res.flushHeaders();
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    // The simulated body errored or the client went away: cut the connection, as a server would.
    res.destroy();
  }
}

/**
 * Serves a simulated vendor fetch over real HTTP on 127.0.0.1, streaming the body as it is
 * produced: a stand-in for "a local server that speaks the vendor's API" in CLI tests.
 */
export function startSimServer(options: {
  dialect: Dialect;
  port?: number;
  fetch: typeof fetch;
}): Promise<SimServer> {
  return new Promise((resolve, reject) => {
    let base = '';
    const server = createServer((req, res) => {
      void handle({ req, res, base, dialect: options.dialect, fetch: options.fetch });
    });
    server.on('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      base = `http://127.0.0.1:${port}`;
      resolve({
        url: base,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
