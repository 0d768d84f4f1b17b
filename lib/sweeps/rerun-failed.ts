import { countSweepJobs, type SweepGrid, type SweepRunMetrics, type TerminateReason } from '@/lib/protocol';
import { sweepRunId } from './run-sweep-job';

/**
 * Re-running only what failed in a sweep: the jobs whose run ended for a reason outside the
 * configuration under test (an error no retry absorbed, an endpoint that stayed down, a timeout,
 * the host or the server giving out) and the jobs that never ran (the sweep stopped, was
 * cancelled or died first). A run that ended on the model's own account (done, not done, out of
 * iterations or budget, a refusal) is a result, not a failure, and is not run again.
 */

/** The ends a re-run runs again, each with why it counts as a failure rather than a result. */
export const RERUN_REASONS: Readonly<Partial<Record<TerminateReason, string>>> = {
  model_error: 'a model call failed with an error no retry absorbed',
  retries_exhausted: 'the endpoint kept failing until the retries ran out (an outage)',
  partial_response: 'the response broke off part-way',
  internal_error: 'the run failed inside Loop Lab',
  run_time_budget: 'the run timed out (its run-time budget)',
  deadlock: 'the run stalled with nothing left to wake it',
  host_overloaded: 'the machine was too busy to run its checks',
  server_restart: 'the server stopped while it ran',
  aborted: 'it was stopped before its end',
};

/** One job to run again: its index in the full grid and why. */
export interface RerunJob {
  job: number;
  reason: string;
}

/**
 * The jobs of a sweep to run again, in job order: of the jobs it ran (all of its grid, or a
 * re-run's own), those whose run ended for a reason in RERUN_REASONS and those with no run.
 */
export function failedJobs(grid: SweepGrid, metrics: readonly SweepRunMetrics[]): RerunJob[] {
  const byJob = new Map(metrics.map((m) => [m.job, m]));
  const jobs = grid.rerun
    ? grid.rerun.jobs.map((j) => j.job)
    : Array.from({ length: countSweepJobs(grid) }, (_, i) => i);
  const out: RerunJob[] = [];
  for (const job of jobs) {
    const run = byJob.get(job);
    if (!run) {
      out.push({ job, reason: 'never ran: the sweep ended before it' });
      continue;
    }
    const why = run.complete ? undefined : RERUN_REASONS[run.reason as TerminateReason];
    if (why) out.push({ job, reason: `${run.reason}: ${why}` });
  }
  return out;
}

export class RerunError extends Error {
  override readonly name = 'RerunError';
}

/**
 * The grid of a new sweep that runs again only what failed in sweep `id` (its jobs under their
 * old indices, `rerun` naming the sweep and each job's reason). `fromCassettes`: each job is
 * served the recording its run made (replayFrom), which only a real endpoint's run keeps; a job
 * without one is refused by name. Throws RerunError when there is nothing to run.
 */
export function rerunGrid(options: {
  id: string;
  name: string;
  grid: SweepGrid;
  metrics: readonly SweepRunMetrics[];
  fromCassettes?: boolean;
  /** Whether a run kept a recording (lib/sweeps/sweep-cassettes.ts), for fromCassettes. */
  hasRecording?: (runId: string) => boolean;
}): SweepGrid {
  const { id, grid } = options;
  const jobs = failedJobs(grid, options.metrics);
  if (jobs.length === 0)
    throw new RerunError(
      `sweep ${id}: nothing failed (no run ended on an error, a timeout or an outage, and every job ran); nothing to run again`,
    );
  const { rerun: _previous, replayFrom: _replay, ...rest } = grid;
  const next: SweepGrid = {
    ...rest,
    name: `re-run of ${options.name}: ${jobs.length} failed`.slice(0, 200),
    rerun: { of: id, jobs },
  };
  if (!options.fromCassettes) return next;
  if (grid.endpoints.length === 0)
    throw new RerunError(
      'fromCassettes: only a real endpoint’s runs keep recordings, and this sweep ran simulated vendors only; re-run without cassettes',
    );
  // The recordings are the sweep's own, or those it was itself served from.
  const source = grid.replayFrom ?? id;
  const missing = jobs.filter(
    (j) => grid.replayFrom === undefined && !options.hasRecording?.(sweepRunId(source, j.job)),
  );
  if (missing.length > 0)
    throw new RerunError(
      `fromCassettes: no recording of ${missing.length === 1 ? 'job' : 'jobs'} ${missing
        .slice(0, 10)
        .map((j) => j.job)
        .join(
          ', ',
        )}${missing.length > 10 ? ', …' : ''} (a job that never ran, or sent nothing, keeps none); re-run without cassettes`,
    );
  return { ...next, replayFrom: source };
}
