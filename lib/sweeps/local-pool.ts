import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
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

/**
 * The worker file, found from the project root at run time (never bundled: Next compiles route
 * handlers into .next/, so a path relative to the compiled module would point nowhere).
 * LOOP_LAB_ROOT overrides the root when the process starts elsewhere.
 */
export function sweepWorkerFile(): string {
  const file = path.join(process.env.LOOP_LAB_ROOT || process.cwd(), 'lib', 'sweeps', 'sweep-worker.mjs');
  if (!fs.existsSync(file)) {
    throw new Error(`the sweep worker ${file} is missing; start Loop Lab from its project folder or set LOOP_LAB_ROOT`);
  }
  return file;
}

/** One worker per core by default: the virtual clock makes a run pure CPU work. */
export function defaultWorkerCount(): number {
  return Math.max(1, os.availableParallelism());
}

/**
 * A pool of worker threads (piscina) running sweep jobs on the virtual clock. Each worker
 * loads the engine once and runs jobs one after another; an aborted job's worker is
 * terminated, which is what cancelling a sweep needs.
 */
export function createLocalPool({ workers = defaultWorkerCount() }: { workers?: number } = {}): SweepJobRunner {
  const pool = new Piscina({
    filename: sweepWorkerFile(),
    minThreads: workers,
    maxThreads: workers,
    concurrentTasksPerWorker: 1,
    idleTimeout: 30_000,
  });
  return {
    kind: 'local',
    describe: `${workers} worker thread${workers === 1 ? '' : 's'}`,
    run(input, signal) {
      return pool.run(input, signal ? { signal } : {}) as Promise<SweepJobResult>;
    },
    async close() {
      await pool.destroy();
    },
  };
}
