import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMPRESSION_THRESHOLD_BYTES, jsonResponse } from './json-response';

/** The compression `next start` puts in front of every response (next/dist/server/lib/router-server.js). */
const compression = createRequire(import.meta.url)('next/dist/compiled/compression') as () => (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  next: () => void,
) => void;

const Body = z.object({ id: z.string(), note: z.string() });

/**
 * A server that answers as `next start` does: its compression, then the Response's status,
 * headers (less the three next/dist/server/send-response.js drops) and body.
 */
let base: string;
let server: http.Server;
beforeAll(async () => {
  const compress = compression();
  server = http.createServer((req, res) => {
    compress(req, res, () => {
      const size = Number(new URL(req.url!, 'http://x').searchParams.get('size'));
      const response = jsonResponse(Body, { id: 'run-1', note: 'é'.repeat(size) }, { status: 201 });
      res.statusCode = response.status;
      response.headers.forEach((value, name) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding'].includes(name))
          res.appendHeader(name, value);
      });
      void response.text().then((text) => res.end(text));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('jsonResponse', () => {
  it('keeps Next from gzipping a small answer and still lets it compress a large one', async () => {
    const small = jsonResponse(
      Body,
      { id: 'run-1', note: 'é' },
      { status: 201, headers: { Location: '/x' } },
    );
    expect(small.headers.get('content-type')).toBe('application/json');
    expect(small.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(small.headers.get('location')).toBe('/x');
    expect(small.status).toBe(201);
    expect(Body.parse(await small.json())).toEqual({ id: 'run-1', note: 'é' });
    const big = jsonResponse(Body, { id: 'run-1', note: 'x'.repeat(COMPRESSION_THRESHOLD_BYTES) });
    expect(big.headers.get('cache-control')).toBe('no-store');

    const headers = { 'accept-encoding': 'gzip' };
    const answered = await fetch(`${base}/?size=10`, { headers });
    expect(answered.headers.get('content-encoding')).toBeNull();
    expect(await answered.json()).toEqual({ id: 'run-1', note: 'é'.repeat(10) });
    const large = await fetch(`${base}/?size=2000`, { headers });
    expect(large.headers.get('content-encoding')).toBe('gzip');
    expect(await large.json()).toEqual({ id: 'run-1', note: 'é'.repeat(2000) });
  });
});
