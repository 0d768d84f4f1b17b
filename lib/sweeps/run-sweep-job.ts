import { NO_TOTALS, type RunEvent, type RunTotals, type SweepRunMetrics } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { encodeLog, type EncodedLog } from '@/lib/store/encoded-log';
import { enableCheckResultCache } from '@/lib/tools/check/check-result-cache';
import type { SweepJob } from './expand-grid';
import { runMetrics } from '@/lib/metrics/run-metrics';

// Sweep runs end on the same workspaces again and again: a check run once on identical input
// answers from its report (lib/tools/check/check-result-cache.ts says what is and is not kept).
enableCheckResultCache();

/**
 * What a worker sends back for one job: the run's metrics and its whole log, encoded in the
 * worker (each event's JSON and the summary row's share), so the thread that stores it only
 * writes rows: cloning ~130 event objects across threads cost the main thread about as much
 * as a worker's whole run of the engine leaves it time for.
 */
export interface SweepJobResult {
  metrics: SweepRunMetrics;
  log: EncodedLog;
}

/** A run's id inside a sweep: the sweep's id and the job's place in the list. */
export function sweepRunId(sweepId: string, index: number): string {
  return `${sweepId}-${index}`;
}

/**
 * Runs one job to its terminate on the virtual clock (the job's config says so) and reads
 * its metrics. Pure apart from CPU: the same job gives the same result in any process.
 */
export async function runSweepJob({ sweepId, job }: { sweepId: string; job: SweepJob }): Promise<SweepJobResult> {
  const runId = sweepRunId(sweepId, job.index);
  const events: RunEvent[] = [];
  // The run's totals after its last event, as its run log folded them: the runs row's.
  let totals: Readonly<RunTotals> = NO_TOTALS;
  const handle = launchRun({
    runId,
    config: job.config,
    onEvent: (event, after) => {
      events.push(event);
      totals = after;
    },
  });
  await handle.done;
  const m = runMetrics(events);
  return {
    log: encodeLog(runId, events, totals),
    metrics: {
      job: job.index,
      run_id: runId,
      key: job.key,
      seed: job.seed,
      complete: m.complete,
      reason: m.reason,
      verdict: m.verdict,
      duration_ms: m.durationMs,
      input_tokens: m.inputTokens,
      output_tokens: m.outputTokens,
      usd: m.usd,
      attempts: m.attempts,
      failed_attempts: m.failedAttempts,
      wasted_tokens: m.wastedTokens,
      wasted_usd: m.wastedUsd,
      errors_seen: m.errorsSeen,
    },
  };
}
