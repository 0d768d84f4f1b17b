import type { RunEvent, TaskVerdict, TerminateReason } from '@/lib/protocol';
import { runMetrics } from '@/lib/sweeps/run-metrics';

/** What a finished run adds up to, as a comparison shows it. */
export interface RunTotals {
  reason: TerminateReason;
  complete: boolean;
  /** null: the log has no task_verdict (an import, an emergency close). */
  verdict: TaskVerdict | null;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  usd: number;
  /** Tokens billed for failed attempts whose output was thrown away. */
  wastedTokens: number;
  /** Foreground errors no retry absorbed: what a person using the loop would have seen. */
  errorsSeen: number;
  attempts: number;
  failedAttempts: number;
}

/**
 * A run's totals, read with the one fold over a finished log (runMetrics: tokens, cost,
 * failed attempts and what they wasted, errors seen) plus its task verdict. null while the
 * run has no terminate yet: totals of a run still going are not its totals.
 */
export function runTotals(events: readonly RunEvent[]): RunTotals | null {
  const last = events.at(-1);
  if (last?.event !== 'terminate') return null;
  const m = runMetrics(events);
  const verdict = events.findLast((e) => e.event === 'task_verdict');
  return {
    reason: last.reason,
    complete: m.complete,
    verdict: verdict?.event === 'task_verdict' ? verdict.verdict : null,
    durationMs: m.durationMs,
    inputTokens: m.inputTokens,
    outputTokens: m.outputTokens,
    usd: m.usd,
    wastedTokens: m.wastedTokens,
    errorsSeen: m.errorsSeen,
    attempts: m.attempts,
    failedAttempts: m.failedAttempts,
  };
}
