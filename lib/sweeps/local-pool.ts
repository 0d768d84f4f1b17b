import os from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { sweepWorkerBundle } from './worker-bundle';
import { createMemoryGate, type EndpointGate } from './endpoint-gate';
import type { SweepJobInput, SweepJobResult } from './run-sweep-job';

/** Where sweep jobs run: the local worker-thread pool, or a queue (lib/sweeps/bullmq-runner.ts). */
export interface SweepJobRunner {
  readonly kind: 'local' | 'bullmq';
  /** Where the jobs run, for a person: "2 worker threads", "BullMQ on redis://…". */
  readonly describe: string;
  /** Runs one job; rejects with an AbortError when the signal fires (the job's worker is stopped). */
  run(input: SweepJobInput, signal?: AbortSignal): Promise<SweepJobResult>;
  close(): Promise<void>;
}

/**
 * Each worker's V8 heap. Without limits a worker's heap grew to ~190 MB of mostly garbage
 * over 500 runs (V8 lets a heap with a high limit grow up to 4× its live size before a full
 * collection), and the server's RSS with it: 645–710 MB peak for a 1,000-run sweep. With an
 * old generation limit of 256 MB V8 collects at ~1.3× the live size instead (a sweep run's
 * live heap, the tokenizer's tables included, measured ~45 MB after a full collection: the
 * limit leaves 5× that), and a 16 MB young generation halves the nursery each worker holds.
 * Measured: 1,000-run sweep peak 493 MB (505 by the kernel's high-water mark) vs 645–710, and
 * no more CPU a run within this machine's noise. A run that outgrows the limit fails its job
 * with a message naming it (below), never silently.
 */
export const SWEEP_WORKER_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 16,
};

/** One worker per core by default: the virtual clock makes a run pure CPU work. */
export function defaultWorkerCount(): number {
  return Math.max(1, os.availableParallelism());
}

/**
 * A pool of worker threads (piscina) running simulated sweep jobs on the virtual clock, and
 * real-endpoint jobs on its own thread through the endpoints' limiters (`gate`). Each worker
 * loads the engine once, from one bundled file (lib/sweeps/worker-bundle.ts), and runs jobs
 * one after another. The pool starts with its first job, once the bundle is ready.
 *
 * Aborting a job stops the whole pool: its workers are terminated (every job in flight on it
 * rejects, with an AbortError where its own signal fired) and the next job starts a new pool.
 * A sweep's jobs are aborted together and the server runs one sweep at a time on its pool, so
 * this is what cancelling needs. Piscina's own per-task abort (terminate that task's worker,
 * start a replacement) is not used: measured, each cancel that way left that many threads
 * running after the pool was destroyed (2 workers: 12 → 14 → 16 → 18 threads over three
 * cancelled sweeps), where destroying the pool gives back every thread (12 after each).
 */
export function createLocalPool({
  workers = defaultWorkerCount(),
  resourceLimits = SWEEP_WORKER_LIMITS,
  gate = createMemoryGate(),
}: {
  workers?: number;
  resourceLimits?: ResourceLimits;
  /** The endpoints' limiters every real-endpoint job of this pool goes through (a BullMQ worker passes the Redis one). */
  gate?: EndpointGate;
} = {}): SweepJobRunner {
  let pool: Promise<Piscina> | undefined;
  const started = (): Promise<Piscina> =>
    (pool ??= sweepWorkerBundle().then(
      // execArgv []: the bundle is plain JavaScript, so a worker needs none of this process's
      // flags; inheriting `--import tsx` (the CLI, the bench) would give every worker thread its
      // own tsx loader thread (measured: ~100 MB of RSS a worker).
      (filename) => {
        const created = new Piscina({
          filename,
          execArgv: [],
          minThreads: workers,
          maxThreads: workers,
          concurrentTasksPerWorker: 1,
          idleTimeout: 30_000,
          resourceLimits,
        });
        listenForPoolErrors(created, () => destroying.has(created));
        return created;
      },
    ));
  /** Pools whose destroy() has begun: a result a worker posts after that belongs to a cancelled job. */
  const destroying = new WeakSet<Piscina>();
  /** Pools being destroyed: close() waits for them, so their threads are gone when it returns. */
  const stopping = new Set<Promise<void>>();
  /** Destroys this pool (once) if it is still the current one; the next job starts another. */
  const stop = (which: Promise<Piscina>): Promise<void> => {
    if (pool !== which) return Promise.resolve();
    pool = undefined;
    const destroyed = which
      .then(
        (p) => {
          destroying.add(p);
          return p.destroy();
        },
        () => {},
      )
      .finally(() => stopping.delete(destroyed));
    stopping.add(destroyed);
    return destroyed;
  };
  return {
    kind: 'local',
    describe: `${workers} worker thread${workers === 1 ? '' : 's'}`,
    async run(input, signal) {
      if (signal?.aborted) throw abortError();
      if (input.job.endpoint) {
        // A real endpoint's run waits on the network, not the CPU: it runs on this thread, where
        // the one gate sees every request of every such run (its limits hold across them all).
        const { runSweepJob } = await import('./run-sweep-job');
        const result = await runSweepJob(input, { gate, ...(signal ? { signal } : {}) });
        if (signal?.aborted) throw abortError();
        return result;
      }
      const current = started();
      const onAbort = (): void => void stop(current);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return (await (await current).run(input)) as SweepJobResult;
      } catch (error) {
        if (signal?.aborted) throw abortError();
        throw explainOutOfMemory(error, resourceLimits);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      if (pool) void stop(pool);
      await Promise.all(stopping);
      await gate.close();
    },
  };
}

/**
 * Piscina reports what belongs to no task as an 'error' event on the pool, and an EventEmitter
 * with no 'error' listener throws it: uncaught, it would end the server. Two such reports are
 * expected and harmless. A worker that finishes its job while the pool is being destroyed posts a
 * result for a task the destroy already rejected ("Unexpected message from Worker"); that job was
 * cancelled, so its result is dropped. Anything else (a worker failing between jobs) is logged,
 * and the next job that needs that worker fails with its own error.
 */
export function listenForPoolErrors(pool: Piscina, isBeingDestroyed: () => boolean): void {
  pool.on('error', (error: unknown) => {
    if (isBeingDestroyed()) return;
    console.error(
      `[loop-lab] a sweep worker failed outside any job: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
}

function abortError(): Error {
  const error = new Error('the sweep was cancelled');
  error.name = 'AbortError';
  return error;
}

/** A worker that ran out of heap says which limit it reached and what to do about it. */
function explainOutOfMemory(error: unknown, limits: ResourceLimits): unknown {
  if ((error as { code?: unknown } | null)?.code !== 'ERR_WORKER_OUT_OF_MEMORY') return error;
  return new Error(
    `a sweep worker ran out of memory (its heap is limited to ${limits.maxOldGenerationSizeMb ?? 'the default'} MB old + ` +
      `${limits.maxYoungGenerationSizeMb ?? 'the default'} MB young generation: SWEEP_WORKER_LIMITS in lib/sweeps/local-pool.ts); ` +
      `this job's run holds more than that`,
    { cause: error },
  );
}
