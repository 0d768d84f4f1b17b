import http from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { startRunRegistry } from '@/lib/server/get-run-registry';
import { dispatch } from './dispatch-route';

/**
 * The run API as a bare HTTP server on 127.0.0.1 (no Next build): the real route handlers
 * and store, in a process of its own — what the restart figure SIGKILLs. Usage:
 * `node --conditions=react-server --import tsx scripts/api/serve-api.ts [PORT]` (0 or none: any free port).
 */
const port = Number(process.argv[2] ?? 0);
/** Headers of the connection, not the request: a Request may not carry them. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'expect',
]);

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const method = req.method === 'POST' ? 'POST' : 'GET';
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    void dispatch({
      method,
      path: req.url ?? '/',
      headers,
      ...(method === 'POST' ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
    }).then(
      (response) => {
        // Raw pairs: a response may set several cookies, which an object would fold into one.
        res.writeHead(
          response.status,
          [...response.headers].flatMap(([name, value]) => [name, value]),
        );
        if (response.body) Readable.fromWeb(response.body as WebReadableStream).pipe(res);
        else res.end();
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: String(error) }));
      },
    );
  });
});
server.listen(port, '127.0.0.1', () => {
  // As a server starts: the runs a previous process left in flight are resumed (or closed with the reason).
  startRunRegistry().then(
    () => {
      const address = server.address();
      console.log(
        `listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`,
      );
    },
    (error: unknown) => {
      console.error(`the run registry did not start: ${String(error)}`);
      process.exit(1);
    },
  );
});
