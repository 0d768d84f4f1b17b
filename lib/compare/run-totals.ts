import { addToTotals, NO_TOTALS, type RunEvent, type RunTotals as FoldedTotals, type TaskVerdict, type TerminateReason } from '@/lib/protocol';
import { MetricsFold } from '@/lib/sweeps/run-metrics';

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
  const fold = new TotalsFold();
  for (const event of events) fold.add(event);
  return fold.totals();
}

/** The same, one event at a time: the totals so far and the run's metrics, both folds of their own. */
export class TotalsFold {
  private sofar: Readonly<FoldedTotals> = NO_TOTALS;
  private readonly metrics = new MetricsFold();
  private last: RunEvent | undefined;

  add(event: RunEvent): void {
    this.sofar = addToTotals(this.sofar, event);
    this.metrics.add(event);
    this.last = event;
  }

  totals(): RunTotals {
    const last = this.last;
    if (last?.event !== 'terminate') {
      return {
        final: false,
        reason: null,
        complete: null,
        verdict: null,
        durationMs: last?.ts ?? 0,
        ...this.sofar,
        wastedTokens: null,
        errorsSeen: null,
        attempts: null,
        failedAttempts: null,
      };
    }
    const m = this.metrics.metrics();
    return {
      final: true,
      reason: last.reason,
      complete: m.complete,
      verdict: m.verdict,
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
}
