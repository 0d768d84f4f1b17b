import { setMaxListeners } from 'node:events';
import type { SweepJob } from './expand-grid';
import type { SweepJobRunner } from './local-pool';
import type { SweepJobResult } from './run-sweep-job';

export interface RunJobsOptions {
  sweepId: string;
  jobs: readonly SweepJob[];
  runner: SweepJobRunner;
  /** Jobs in flight at once: enough to keep every worker busy, few enough to bound memory. */
  inFlight: number;
  signal?: AbortSignal;
  /** Called once per finished job, in the order jobs finish; the caller stores it. */
  onResult: (job: SweepJob, result: SweepJobResult) => void;
}

export type RunJobsOutcome = { status: 'completed' } | { status: 'cancelled' } | { status: 'failed'; message: string };

/**
 * Feeds a job list through a runner, a bounded number at a time. Cancelling stops feeding
 * and aborts the jobs in flight (the pool terminates their workers); a job that fails
 * (a bug: every run ends with terminate) fails the sweep, which then stops the rest.
 */
export async function runJobs({ sweepId, jobs, runner, inFlight, signal, onResult }: RunJobsOptions): Promise<RunJobsOutcome> {
  const stop = new AbortController();
  // Every job in flight listens on this one signal.
  setMaxListeners(0, stop.signal);
  const onAbort = (): void => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort(); // cancelled before the first job: run none
  let next = 0;
  let failure: string | undefined;

  const lane = async (): Promise<void> => {
    while (!stop.signal.aborted && next < jobs.length) {
      const job = jobs[next]!;
      next += 1;
      try {
        const result = await runner.run({ sweepId, job }, stop.signal);
        if (stop.signal.aborted) return;
        onResult(job, result);
      } catch (error) {
        if (stop.signal.aborted) return;
        failure ??= `job ${job.index} (${job.key}, seed ${job.seed}): ${error instanceof Error ? error.message : String(error)}`;
        stop.abort();
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(inFlight, jobs.length)) }, lane));
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (failure !== undefined) return { status: 'failed', message: failure };
  if (signal?.aborted) return { status: 'cancelled' };
  return { status: 'completed' };
}
