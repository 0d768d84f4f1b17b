import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareRuns } from '@/lib/compare/compare-runs';
import { foldTotals, type EventOf, type RunEvent } from '@/lib/protocol';
import { createSqliteRunStore, EVENT_PAGE, runJsonlStream, toJsonl, type RunStore } from '@/lib/store';
import { longLog } from '@/lib/testing/fixtures/long-log';
import { createComparisonCache } from './comparison-cache';
import { createFinishedRunViews } from './finished-run-views';
import { createRunRegistry } from './run-registry';
import { createSseResponse } from './sse-response';

/**
 * Reading a long finished log costs memory for a page of rows, not for the log: every reader
 * (the finished view, the trace download, the SSE replay, the comparison) is run over a store
 * that counts the rows each read hands back, and none may get more than a page at once.
 */
let dir: string;
let real: RunStore;
/** Rows handed back by each read of the store, in order. */
let reads: number[];
let store: RunStore;
const LENGTH = 5 * EVENT_PAGE + 1;
const log = longLog('long', LENGTH);

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-long-log-'));
  real = createSqliteRunStore({ dir });
  const config = (log[0] as EventOf<'run_start'>).config;
  await real.createRun({ id: 'long', config, events: log, totals: foldTotals(log) });
  reads = [];
  const counted = <T extends unknown[]>(rows: T): T => (reads.push(rows.length), rows);
  store = {
    ...real,
    readEvents: async (options) => counted(await real.readEvents(options)),
    readEventBodies: async (options) => counted(await real.readEventBodies(options)),
    readEventBodiesAt: async (options) => counted(await real.readEventBodiesAt(options)),
  };
});
afterEach(async () => {
  await real.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe(`a finished log of ${LENGTH.toLocaleString('en')} events`, () => {
  it('is folded into its view a page at a time', async () => {
    const views = createFinishedRunViews({ store, isLive: async () => false });
    const body = JSON.parse((await views.body('long'))!) as { finished: boolean; named: RunEvent[] };
    expect(body.finished).toBe(true);
    expect(body.named.at(-1)).toEqual(log.at(-1));
    expect(reads.filter((n) => n > 0).length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...reads)).toBeLessThanOrEqual(EVENT_PAGE);
  });

  it('keeps folded bodies up to a size in characters: one larger is answered each time and not kept', async () => {
    const kept = createFinishedRunViews({ store, isLive: async () => false });
    const first = await kept.body('long');
    const readsOnce = reads.length;
    expect(await kept.body('long')).toBe(first);
    expect(reads.length).toBe(readsOnce);
    const small = createFinishedRunViews({ store, isLive: async () => false, keepChars: first!.length - 1 });
    expect(await small.body('long')).toBe(first);
    expect(await small.body('long')).toBe(first);
    expect(reads.length).toBe(3 * readsOnce);
  });

  it('is streamed as JSONL a page per pull, exactly as stored', async () => {
    const stream = (await runJsonlStream({ store, runId: 'long' }))!;
    const reader = stream.getReader();
    const first = await reader.read();
    // Nothing is read ahead of the reader beyond the stream's one chunk of queue.
    expect(reads.length).toBeLessThanOrEqual(2);
    const chunks = [first.value!];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(toJsonl(log));
    expect(Math.max(...reads)).toBeLessThanOrEqual(EVENT_PAGE);
  });

  it('is replayed over SSE without reading it whole', async () => {
    const registry = createRunRegistry({
      store,
      launch: () => {
        throw new Error('no run starts here');
      },
    });
    const text = await (await createSseResponse({ registry, runId: 'long' })).text();
    const frames = text.split('\n\n').filter((frame) => frame.startsWith('id: '));
    expect(frames).toHaveLength(LENGTH);
    expect(frames.at(-1)).toContain('"event":"terminate"');
    expect(Math.max(...reads)).toBeLessThanOrEqual(EVENT_PAGE);
  });

  it('is compared a page at a time, with the same answer as the whole logs give', async () => {
    const other = longLog('other', LENGTH - 10);
    await real.createRun({
      id: 'other',
      config: (other[0] as EventOf<'run_start'>).config,
      events: other,
      totals: foldTotals(other),
    });
    const answer = await createComparisonCache({ store }).compare('long', 'other');
    expect(answer).toEqual(compareRuns({ id: 'long', events: log }, { id: 'other', events: other }));
    expect(Math.max(...reads)).toBeLessThanOrEqual(EVENT_PAGE);
  });
});
