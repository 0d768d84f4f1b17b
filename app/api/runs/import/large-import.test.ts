import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { getCloneableBody } from 'next/dist/server/body-streams';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '@/lib/server';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { dispatch } from '@/scripts/api/dispatch-route';
import { POST as postImport } from './route';

/**
 * A large trace import as `next start` delivers it: proxy.ts runs for every /api request, so
 * Next buffers the body for it (getCloneableBody, up to experimental.proxyClientMaxBodySize)
 * and hands the route that buffered copy. The body must reach the route whole, or be refused
 * with a 413 naming the limit — never stored cut short.
 */
useTempDataDir('loop-lab-large-import-');

/** experimental.proxyClientMaxBodySize as next.config.mjs sets it (undefined: Next's 10 MB default). */
let configuredLimit: number | undefined;
beforeAll(async () => {
  const config = (await import(pathToFileURL(path.resolve('next.config.mjs')).href)) as {
    default: { experimental?: { proxyClientMaxBodySize?: number } };
  };
  configuredLimit = config.default.experimental?.proxyClientMaxBodySize;
});

const TOOL_LINES = 14_000;

/** A plain tracer's JSONL of about 15 MB: one llm_call, TOOL_LINES tool calls of 1 kB each, then the terminate. */
function fifteenMegabyteTrace(): string {
  const ts = 1_760_000_000;
  const lines = [
    JSON.stringify({
      run_id: 'big',
      ts,
      event: 'llm_call',
      iteration: 1,
      input_tokens: 10,
      output_tokens: 5,
    }),
  ];
  const result = 'r'.repeat(1_000);
  for (let i = 0; i < TOOL_LINES; i += 1) {
    lines.push(
      JSON.stringify({
        run_id: 'big',
        ts: ts + i / 1000,
        event: 'tool_call',
        iteration: 1,
        tool: 'read_file',
        args: { path: `f${i}.ts` },
        result,
      }),
    );
  }
  lines.push(
    JSON.stringify({
      run_id: 'big',
      ts: ts + TOOL_LINES,
      event: 'terminate',
      iteration: 1,
      reason: 'end_turn',
      complete: true,
    }),
  );
  return `${lines.join('\n')}\n`;
}

/** What the route reads after Next buffered the body for the proxy, with this app's configured limit. */
async function throughProxyBuffer(body: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) chunks.push(body.subarray(at, at + 64 * 1024));
  const incoming = Readable.from(chunks);
  const cloneable = getCloneableBody(incoming as unknown as IncomingMessage, proxyLimit());
  cloneable.cloneBodyStream().resume(); // the proxy's copy: proxy.ts never reads it
  await cloneable.finalize();
  const received: Buffer[] = [];
  for await (const chunk of incoming) received.push(chunk as Buffer);
  return Buffer.concat(received);
}

function proxyLimit(): number | undefined {
  return configuredLimit;
}

const importRequest = (body: Uint8Array | string, headers: Record<string, string> = {}): Request =>
  new Request('http://localhost/api/runs/import', {
    method: 'POST',
    body: body as BodyInit,
    headers: { 'Content-Type': 'application/x-ndjson', ...headers },
  });

describe('a large import through the proxy', () => {
  it('lets the proxy buffer more than the import route accepts, with a chunk to spare', () => {
    expect(proxyLimit()).toBeGreaterThanOrEqual(MAX_BODY_BYTES + 1024 * 1024);
  });

  it('stores a 15 MB JSONL whole, its terminate included', async () => {
    const text = fifteenMegabyteTrace();
    const sent = Buffer.from(text);
    expect(sent.length).toBeGreaterThan(15_000_000);
    const delivered = await throughProxyBuffer(sent);
    const response = await postImport(importRequest(delivered, { 'Content-Length': String(sent.length) }));
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const trace = await dispatch({ method: 'GET', path: `/api/runs/${id}/trace` });
    const events = (await trace.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; reason?: string });
    expect(events.filter((e) => e.event === 'tool_call')).toHaveLength(TOOL_LINES);
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn' });
  }, 120_000);

  it('answers a body over the limit with a 413 naming the limit, declared or not', async () => {
    const over = Buffer.alloc(MAX_BODY_BYTES + 2 * 1024 * 1024, 0x61);
    const declared = await postImport(importRequest(over, { 'Content-Length': String(over.length) }));
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: string }).error).toMatch(
      /the limit is 20 MiB \(20971520 bytes\)/,
    );
    // Sent chunked (no length): whatever the proxy kept is still over the route's limit.
    const delivered = await throughProxyBuffer(over);
    const chunked = await postImport(importRequest(new Uint8Array(delivered)));
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: string }).error).toMatch(/over the limit of 20 MiB/);
  }, 60_000);

  it('refuses a body that ends before the length it declared, and stores nothing', async () => {
    const text = fifteenMegabyteTrace();
    const cut = Buffer.from(text).subarray(0, 10 * 1024 * 1024);
    const before = ((await (await dispatch({ method: 'GET', path: '/api/runs' })).json()) as unknown[])
      .length;
    const response = await postImport(
      importRequest(cut, { 'Content-Length': String(Buffer.byteLength(text)) }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /ended after 10485760 of the \d+ bytes it declared/,
    );
    expect(((await (await dispatch({ method: 'GET', path: '/api/runs' })).json()) as unknown[]).length).toBe(
      before,
    );
  }, 60_000);
});
