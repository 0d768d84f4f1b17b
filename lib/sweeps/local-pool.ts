import os from 'node:os';
import { Piscina } from 'piscina';
import { sweepWorkerBundle } from './worker-bundle';
import type { SweepJob } from './expand-grid';
import type { SweepJobResult } from './run-sweep-job';

/** Where sweep jobs run: the local worker-thread pool, or a queue (lib/sweeps/bullmq-runner.ts). */
export interface SweepJobRunner {
  readonly kind: 'local' | 'bullmq';
  /** Where the jobs run, for a person: "2 worker threads", "BullMQ on redis://…". */
  readonly describe: string;
  /** Runs one job; rejects with an AbortError when the signal fires (the job's worker is stopped). */
  run(input: { sweepId: string; job: SweepJob }, signal?: AbortSignal): Promise<SweepJobResult>;
  close(): Promise<void>;
}

/** One worker per core by default: the virtual clock makes a run pure CPU work. */
export function defaultWorkerCount(): number {
  return Math.max(1, os.availableParallelism());
}

/**
 * A pool of worker threads (piscina) running sweep jobs on the virtual clock. Each worker
 * loads the engine once, from one bundled file (lib/sweeps/worker-bundle.ts), and runs jobs
 * one after another; an aborted job's worker is terminated, which is what cancelling a sweep
 * needs. The pool starts with its first job, once the bundle is ready.
 */
export function createLocalPool({ workers = defaultWorkerCount() }: { workers?: number } = {}): SweepJobRunner {
  let pool: Promise<Piscina> | undefined;
  const started = (): Promise<Piscina> =>
    (pool ??= sweepWorkerBundle().then(
      // execArgv []: the bundle is plain JavaScript, so a worker needs none of this process's
      // flags; inheriting `--import tsx` (the CLI, the bench) would give every worker thread its
      // own tsx loader thread (measured: ~100 MB of RSS a worker).
      (filename) => new Piscina({ filename, execArgv: [], minThreads: workers, maxThreads: workers, concurrentTasksPerWorker: 1, idleTimeout: 30_000 }),
    ));
  return {
    kind: 'local',
    describe: `${workers} worker thread${workers === 1 ? '' : 's'}`,
    async run(input, signal) {
      return (await started()).run(input, signal ? { signal } : {}) as Promise<SweepJobResult>;
    },
    async close() {
      if (!pool) return;
      await (await pool.catch(() => undefined))?.destroy();
    },
  };
}
