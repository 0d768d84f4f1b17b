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
  __loopLabStore?: {
    close(): Promise<void>;
    listRuns(options?: { limit?: number }): Promise<{ id: string }[]>;
  };
  __loopLabSweepStore?: { close(): Promise<void> };
  __loopLabPromptSetStore?: { close(): Promise<void> };
  __loopLabCassetteStore?: { close(): Promise<void> };
  __loopLabVisitorStore?: { close(): Promise<void> };
  __loopLabWireStore?: { close(): Promise<void> };
  __loopLabTaskUploadStore?: { close(): Promise<void> };
  __loopLabRunsResumed?: unknown;
  __loopLabBoard?: { room: { close(): Promise<void> } };
  __loopLabRoomLimits?: unknown;
  __loopLabAdmissionLocks?: unknown;
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
  const liveIds: string[] = [];
  for (const run of await store.listRuns({ limit: 100_000 }))
    if (await registry.isLive(run.id)) liveIds.push(run.id);
  for (const runId of liveIds) {
    // A run that ends meanwhile answers 409: it is settled all the same.
    await registry.control({ runId, message: { action: 'abort', reason: 'aborted' } }).catch(() => {});
  }
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
  const live = (await registry.list({ limit: 100_000 })).filter(
    (sweep) => sweep.status === 'running' || sweep.status === 'queued',
  );
  for (const sweep of live) {
    try {
      await registry.cancel(sweep.id);
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
    await g.__loopLabStore?.close();
    await g.__loopLabSweepStore?.close();
    await g.__loopLabPromptSetStore?.close();
    await g.__loopLabCassetteStore?.close();
    await g.__loopLabVisitorStore?.close();
    await g.__loopLabWireStore?.close();
    await g.__loopLabTaskUploadStore?.close();
    delete g.__loopLabStore;
    delete g.__loopLabSweepStore;
    delete g.__loopLabPromptSetStore;
    delete g.__loopLabCassetteStore;
    delete g.__loopLabVisitorStore;
    delete g.__loopLabWireStore;
    delete g.__loopLabTaskUploadStore;
    await g.__loopLabBoard?.room.close();
    delete g.__loopLabBoard;
    delete g.__loopLabRoomLimits;
    delete g.__loopLabAdmissionLocks;
    delete g.__loopLabRunTraffic;
    // Both hold what the file's server saw: the finished-run views its (now closed) store, the request keys its keys.
    delete g.__loopLabFinishedRunViews;
    delete g.__loopLabRequestKeys;
    delete g.__loopLabRunRegistry;
    delete g.__loopLabRunsResumed;
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
