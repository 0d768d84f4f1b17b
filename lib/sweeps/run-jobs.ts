import { setMaxListeners } from 'node:events';
import type { SweepJob } from './expand-grid';
import type { SweepJobRunner } from './local-pool';
import type { SweepJobInput, SweepJobResult } from './run-sweep-job';

export interface RunJobsOptions {
  sweepId: string;
  jobs: readonly SweepJob[];
  runner: SweepJobRunner;
  /** Jobs in flight at once: enough to keep every worker busy, few enough to bound memory. */
  inFlight: number;
  signal?: AbortSignal;
  /** What the runner is handed for a job (default: the sweep's id and the job). */
  inputOf?: (job: SweepJob) => SweepJobInput | Promise<SweepJobInput>;
  /**
   * Asked before each job starts (the cost cap): `go` starts it; `wait` asks again when a job in
   * flight ends; a stop reason ends the sweep there (no job starts after it, the ones in flight
   * finish and are kept).
   */
  admit?: (job: SweepJob) => 'go' | 'wait' | { stop: string };
  /**
   * Called once per finished job, in the order jobs finish, one at a time (a call waits for the
   * one before it to resolve); the caller stores it.
   */
  onResult: (job: SweepJob, result: SweepJobResult) => void | Promise<void>;
}

export type RunJobsOutcome =
  | { status: 'completed' }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string }
  | { status: 'stopped'; message: string };

/**
 * Feeds a job list through a runner, a bounded number at a time. Cancelling stops feeding
 * and aborts the jobs in flight (the pool terminates their workers); a job that fails
 * (a bug: every run ends with terminate) fails the sweep, which then stops the rest; a job
 * `admit` refuses stops the feeding, and the sweep ends stopped once the jobs in flight are in.
 */
export async function runJobs({
  sweepId,
  jobs,
  runner,
  inFlight,
  signal,
  inputOf,
  admit,
  onResult,
}: RunJobsOptions): Promise<RunJobsOutcome> {
  const stop = new AbortController();
  // Every job in flight listens on this one signal.
  setMaxListeners(0, stop.signal);
  const onAbort = (): void => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort(); // cancelled before the first job: run none
  let next = 0;
  let failure: string | undefined;
  let stopped: string | undefined;
  let running = 0;
  /** The last result handed to onResult: the next waits for it, so results are stored one at a time, in order. */
  let storing: Promise<void> = Promise.resolve();
  /** Lanes waiting for a job in flight to end (admit said wait). */
  let ended: { promise: Promise<void>; resolve: () => void } | undefined;
  const jobEnded = (): void => {
    running -= 1;
    ended?.resolve();
    ended = undefined;
  };

  const lane = async (): Promise<void> => {
    while (!stop.signal.aborted && stopped === undefined && next < jobs.length) {
      const job = jobs[next]!;
      const decision = admit ? admit(job) : 'go';
      if (decision === 'wait' && running > 0) {
        if (!ended) {
          let resolve!: () => void;
          ended = { promise: new Promise<void>((r) => (resolve = r)), resolve };
        }
        await ended.promise;
        continue;
      }
      if (typeof decision === 'object' || decision === 'wait') {
        stopped = typeof decision === 'object' ? decision.stop : `job ${job.index} could not be admitted`;
        return;
      }
      next += 1;
      running += 1;
      try {
        const result = await runner.run(inputOf ? await inputOf(job) : { sweepId, job }, stop.signal);
        if (stop.signal.aborted) return;
        const stored = storing.then(() => onResult(job, result));
        storing = stored.catch(() => {});
        await stored;
      } catch (error) {
        if (stop.signal.aborted) return;
        failure ??= `job ${job.index} (${job.key}, seed ${job.seed}): ${error instanceof Error ? error.message : String(error)}`;
        stop.abort();
      } finally {
        jobEnded();
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
  if (stopped !== undefined) return { status: 'stopped', message: stopped };
  return { status: 'completed' };
}
