import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { foldTotals, type EventOf } from '@/lib/protocol';
import { createFinishedRunViews } from '@/lib/server/finished-run-views';
import { createSqliteRunStore, runJsonlStream } from '@/lib/store';
import { longLog } from '@/lib/testing/fixtures/long-log';
import { median } from './stats';
import { runBundled } from './run-bundled';

/** The sizes compared: a short log and a long one. */
export const SHORT_LOG = 2_000;
export const LONG_LOG = 100_000;
/** Linear: the long log's CPU an event at most this many times the short log's. */
export const LOG_READ_RATIO_TARGET = 1.5;
/**
 * RSS after each long open at most this many MB over before the first: a page of rows and the
 * kept view bodies (at most 32 M characters together), not the log (15 MB as JSONL, several
 * times that as parsed objects).
 */
export const LOG_READ_RSS_MB = 64;

/**
 * Opening a finished run as its run page does, on the server: the folded view
 * (GET /api/runs/{id}/view, folded from the store and kept) and the whole log as JSONL read
 * to its end (GET /api/runs/{id}/trace), each open a different run so no kept view answers it.
 * CPU an event at 2,000 and 100,000 events, and the process's RSS before and after each of
 * three long opens, in a bundled process of its own (the store written by the bench's process
 * before it, so writing the logs leaves nothing in this one's heap).
 */
export interface LogRead {
  short: { events: number; cpuUsPerEvent: number };
  long: { events: number; cpuUsPerEvent: number[] };
  rssMb: { before: number; afterOpens: number[] };
  /** Characters of one long run's view body and of its JSONL. */
  bodyChars: number;
  jsonlBytes: number;
}

const SHORT_RUNS = ['short-1', 'short-2', 'short-3', 'short-4', 'short-5', 'short-6'];
const LONG_RUNS = ['long-1', 'long-2', 'long-3'];

/** The first step, in the bench's process: the store with every run the second step opens. */
export async function writeLogs(dir: string): Promise<void> {
  const store = createSqliteRunStore({ dir });
  try {
    for (const [ids, length] of [
      [SHORT_RUNS, SHORT_LOG],
      [LONG_RUNS, LONG_LOG],
    ] as const) {
      for (const id of ids) {
        const events = longLog(id, length);
        await store.createRun({
          id,
          config: (events[0] as EventOf<'run_start'>).config,
          events,
          totals: foldTotals(events),
        });
      }
    }
  } finally {
    await store.close();
  }
}

/** The second step: the opens, timed (CPU of this process) and RSS read after each long one. */
export async function readLogs(dir: string): Promise<LogRead> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const store = createSqliteRunStore({ dir });
  const views = createFinishedRunViews({ store, isLive: async () => false });
  const rss = () => process.memoryUsage.rss() / (1024 * 1024);
  const open = async (runId: string): Promise<{ cpuUs: number; bodyChars: number; jsonlBytes: number }> => {
    const start = process.cpuUsage();
    const body = await views.body(runId);
    let jsonlBytes = 0;
    const reader = (await runJsonlStream({ store, runId }))!.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read())
      jsonlBytes += next.value.length;
    const used = process.cpuUsage(start);
    return { cpuUs: used.user + used.system, bodyChars: body!.length, jsonlBytes };
  };
  try {
    // Two short opens warm the code; the median of the rest is the short figure.
    const shorts: number[] = [];
    for (const id of SHORT_RUNS) shorts.push((await open(id)).cpuUs / SHORT_LOG);
    gc();
    const before = rss();
    const afterOpens: number[] = [];
    const longs: number[] = [];
    let bodyChars = 0;
    let jsonlBytes = 0;
    for (const id of LONG_RUNS) {
      const opened = await open(id);
      longs.push(opened.cpuUs / LONG_LOG);
      afterOpens.push(rss());
      ({ bodyChars, jsonlBytes } = opened);
    }
    return {
      short: { events: SHORT_LOG, cpuUsPerEvent: median(shorts.slice(2)) },
      long: { events: LONG_LOG, cpuUsPerEvent: longs },
      rssMb: { before, afterOpens },
      bodyChars,
      jsonlBytes,
    };
  } finally {
    await store.close();
  }
}

/** Both steps over a temporary data folder, the opens bundled in a process of their own. */
export async function measureLogRead(): Promise<LogRead> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-bench-log-read-'));
  try {
    const entry = 'lib/bench/log-read-entry.ts';
    await writeLogs(dir);
    const printed = await runBundled({ entry, env: { BENCH_LOG_READ_DIR: dir } });
    return JSON.parse(printed.trim().split('\n').at(-1)!) as LogRead;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
