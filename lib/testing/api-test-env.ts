import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RunRegistry } from '@/lib/server/run-registry';
import type { SweepRegistry } from '@/lib/server/sweep-registry';

/**
 * Shared setup for the route-handler tests under app/api: a private data directory, the
 * server's global singletons closed and forgotten afterwards, and the small request and
 * stream helpers every route test would otherwise write again.
 */

/** The singletons lib/store/get-store.ts and lib/server/get-*-registry.ts keep on globalThis. */
type ServerGlobals = {
  __loopLabStore?: { close(): void; listRuns(options?: { limit?: number }): { id: string }[] };
  __loopLabSweepStore?: { close(): void };
  __loopLabPromptSetStore?: { close(): void };
  __loopLabCassetteStore?: { close(): void };
  __loopLabVisitorStore?: { close(): void };
  __loopLabWireStore?: { close(): void };
  __loopLabTaskUploadStore?: { close(): void };
  __loopLabBoard?: unknown;
  __loopLabRoomLimits?: unknown;
  __loopLabRunTraffic?: unknown;
  __loopLabFinishedRunViews?: unknown;
  __loopLabRequestKeys?: unknown;
  __loopLabRunRegistry?: Pick<RunRegistry, 'isLive' | 'control' | 'whenFinished'>;
  __loopLabSweepRegistry?: Pick<SweepRegistry, 'list' | 'cancel' | 'whenFinished'>;
};

/**
 * Aborts every run the registry still has live and waits for each terminate to be stored: a
 * test that starts a run and does not read it to the end leaves the run going, and closing the
 * store under it would make its next write fail ("The database connection is not open").
 */
export async function settleLiveRuns(): Promise<void> {
  const g = globalThis as typeof globalThis & ServerGlobals;
  const registry = g.__loopLabRunRegistry;
  const store = g.__loopLabStore;
  if (!registry || !store) return;
  const liveIds = store
    .listRuns({ limit: 100_000 })
    .map((run) => run.id)
    .filter((id) => registry.isLive(id));
  for (const runId of liveIds) registry.control({ runId, message: { action: 'abort', reason: 'aborted' } });
  await Promise.all(liveIds.map((runId) => registry.whenFinished(runId)));
}

/**
 * Cancels every sweep the registry still runs or queues and waits until each has ended (its
 * workers closed): a sweep left going by a test would otherwise write to the store after it is
 * closed, in the middle of a later test file sharing this worker.
 */
export async function settleLiveSweeps(): Promise<void> {
  const registry = (globalThis as typeof globalThis & ServerGlobals).__loopLabSweepRegistry;
  if (!registry) return;
  const live = registry
    .list({ limit: 100_000 })
    .filter((sweep) => sweep.status === 'running' || sweep.status === 'queued');
  for (const sweep of live) {
    try {
      registry.cancel(sweep.id);
    } catch {
      // ended since it was listed, or run by another process: nothing of it runs here
    }
  }
  await Promise.all(live.map((sweep) => registry.whenFinished(sweep.id)));
}

/**
 * Points LOOP_LAB_DATA_DIR at a fresh temp directory before the file's tests and, after them,
 * settles the runs still live, closes every store the server opened there, drops the registries and deletes the directory —
 * so the next test file gets its own store rather than a closed one. Returns the directory.
 */
export function useTempDataDir(prefix: string): () => string {
  let dir: string | undefined;
  // The settings as they were, put back afterwards: the next file in the same worker starts from them.
  const before = { dataDir: process.env.LOOP_LAB_DATA_DIR, runThreads: process.env.LOOP_LAB_RUN_THREADS };
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    process.env.LOOP_LAB_DATA_DIR = dir;
    // Route tests run their real-clock runs on the test's own thread (lib/run-threads has its own tests).
    process.env.LOOP_LAB_RUN_THREADS ??= '0';
  });
  afterAll(async () => {
    await settleLiveSweeps();
    await settleLiveRuns();
    const g = globalThis as typeof globalThis & ServerGlobals;
    g.__loopLabStore?.close();
    g.__loopLabSweepStore?.close();
    g.__loopLabPromptSetStore?.close();
    g.__loopLabCassetteStore?.close();
    g.__loopLabVisitorStore?.close();
    g.__loopLabWireStore?.close();
    g.__loopLabTaskUploadStore?.close();
    delete g.__loopLabStore;
    delete g.__loopLabSweepStore;
    delete g.__loopLabPromptSetStore;
    delete g.__loopLabCassetteStore;
    delete g.__loopLabVisitorStore;
    delete g.__loopLabWireStore;
    delete g.__loopLabTaskUploadStore;
    delete g.__loopLabBoard;
    delete g.__loopLabRoomLimits;
    delete g.__loopLabRunTraffic;
    // Both hold what the file's server saw: the finished-run views its (now closed) store, the request keys its keys.
    delete g.__loopLabFinishedRunViews;
    delete g.__loopLabRequestKeys;
    delete g.__loopLabRunRegistry;
    delete g.__loopLabSweepRegistry;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    restoreEnv('LOOP_LAB_DATA_DIR', before.dataDir);
    restoreEnv('LOOP_LAB_RUN_THREADS', before.runThreads);
  });
  return () => {
    if (!dir) throw new Error('useTempDataDir: the directory exists only once beforeAll has run');
    return dir;
  };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** A JSON POST as the browser sends it; a string body goes as is, anything else through JSON.stringify. */
export function jsonPost(url: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** The second argument Next.js passes a dynamic route handler. */
export function routeContext<P extends Record<string, string>>(params: P): { params: Promise<P> } {
  return { params: Promise.resolve(params) };
}

/** Reads a whole server-sent-event body and parses each `data:` line as JSON. */
export async function readSseEvents<T = unknown>(response: Response): Promise<T[]> {
  return (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as T);
}
