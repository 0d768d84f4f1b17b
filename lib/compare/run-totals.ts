import { foldTotals, type RunEvent, type TaskVerdict, type TerminateReason } from '@/lib/protocol';
import { runMetrics } from '@/lib/sweeps/run-metrics';

/** What a run adds up to, as a comparison shows it. null: not known until the run ends. */
export interface RunTotals {
  /** The run has ended: every total is final. */
  final: boolean;
  reason: TerminateReason | null;
  complete: boolean | null;
  /** null also when the log has no task_verdict (an import, an emergency close). */
  verdict: TaskVerdict | null;
  /** Run-clock ms (to the last event so far while it runs). */
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  usd: number;
  /** Tokens billed for failed attempts whose output was thrown away. */
  wastedTokens: number | null;
  /** Foreground errors no retry absorbed: what a person using the loop would have seen. */
  errorsSeen: number | null;
  attempts: number | null;
  failedAttempts: number | null;
}

/**
 * A run's totals. A finished log is read with runMetrics (tokens, cost, failed attempts and
 * what they wasted, errors seen) plus its task verdict. While the run goes on, only what is
 * already true is given: tokens and cost so far (the one totals fold) and the run time so far;
 * the rest waits for the end (an error is "seen" only if no retry absorbs it).
 */
export function runTotals(events: readonly RunEvent[]): RunTotals {
  const last = events.at(-1);
  if (last?.event !== 'terminate') {
    const sofar = foldTotals(events);
    return {
      final: false,
      reason: null,
      complete: null,
      verdict: null,
      durationMs: last?.ts ?? 0,
      ...sofar,
      wastedTokens: null,
      errorsSeen: null,
      attempts: null,
      failedAttempts: null,
    };
  }
  const m = runMetrics(events);
  const verdict = events.findLast((e) => e.event === 'task_verdict');
  return {
    final: true,
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
