import {
  addToTotals,
  NO_TOTALS,
  type ClockKind,
  type RunEvent,
  type RunTotals as FoldedTotals,
  type TaskVerdict,
  type TerminateReason,
} from '@/lib/protocol';
import type { TotalsLineId } from '@/lib/protocol/http/compare';
import { MetricsFold } from '@/lib/metrics/run-metrics';
import type { ModuleTotalsLine } from '@/lib/mechanisms/module';
import { MODULE_TOTALS_LINES } from '@/lib/mechanisms/modules/about';

/** What a run adds up to, as a comparison shows it. null: not known until the run ends. */
export interface RunTotals {
  /** The run has ended: every total is final. */
  final: boolean;
  /** The run's clock (its config): a virtual- or paced-clock time is deterministic, a real-clock one carries the machine's own variation. null: no run_start read. */
  clock: ClockKind | null;
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
  /** HTTP requests sent: the attempts and the ones the vendor SDK resent beneath them (sdk_retry). */
  httpRequests: number | null;
  failedAttempts: number | null;
  /** Tool calls that ran and failed (status error or timeout); a call the executor answered without running it is not one. */
  failedToolRuns: number | null;
  /** The background title call answered (a run_title event). */
  titled: boolean | null;
  /** Model turns started (the highest iteration_start). */
  turns: number;
  /** Test files the model edited that the task verdict ran as edited (its own copies, not the shipped ones). null: no verdict yet. */
  trustedEditedTests: number | null;
  /** What the run's sub-agents spent, apart from the run's own totals: the sum of their ends so far (subagent_end). */
  subagentInputTokens: number;
  subagentOutputTokens: number;
  subagentUsd: number;
  subagentRequests: number;
  /** The mechanism modules' lines (lib/mechanisms/modules/about.ts MODULE_TOTALS_LINES), by id: each count so far. */
  moduleLines?: Record<string, number>;
}

// The totals table's line ids (lib/protocol/http/compare) are exactly these totals.
type SameLines<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const linesMatch: SameLines<Exclude<keyof RunTotals, 'final' | 'clock' | 'moduleLines'>, TotalsLineId> = true;
void linesMatch;

/** A tool call's statuses that mean the tool itself ran and failed. */
const RAN_AND_FAILED = new Set(['error', 'timeout']);

/**
 * A run's totals. A finished log is read with runMetrics (tokens, cost, failed attempts and
 * what they wasted, errors seen) plus its task verdict. While the run goes on, only what is
 * already true is given: tokens and cost so far (the one totals fold) and the run time so far;
 * the rest waits for the end (an error is "seen" only if no retry absorbs it).
 */
export function runTotals(
  events: readonly RunEvent[],
  moduleLines: readonly ModuleTotalsLine[] = MODULE_TOTALS_LINES,
): RunTotals {
  const fold = new TotalsFold(moduleLines);
  for (const event of events) fold.add(event);
  return fold.totals();
}

/** The same, one event at a time: the totals so far and the run's metrics, both folds of their own. */
export class TotalsFold {
  private sofar: Readonly<FoldedTotals> = NO_TOTALS;
  private readonly metrics = new MetricsFold();
  private last: RunEvent | undefined;
  private clock: RunTotals['clock'] = null;
  private failedToolRuns = 0;
  private titled = false;
  private turns = 0;
  private trustedEditedTests: number | null = null;
  private subagents = {
    subagentInputTokens: 0,
    subagentOutputTokens: 0,
    subagentUsd: 0,
    subagentRequests: 0,
  };

  private readonly counts: Record<string, number>;

  constructor(private readonly moduleLines: readonly ModuleTotalsLine[] = MODULE_TOTALS_LINES) {
    this.counts = Object.fromEntries(moduleLines.map((line) => [line.id, 0]));
  }

  add(event: RunEvent): void {
    for (const line of this.moduleLines) this.counts[line.id]! += line.count(event);
    if (event.event === 'run_start') this.clock = event.config.clock;
    else if (
      event.event === 'tool_call' &&
      (event.status ? RAN_AND_FAILED.has(event.status) : event.is_error)
    )
      this.failedToolRuns += 1;
    else if (event.event === 'run_title') this.titled = true;
    else if (event.event === 'iteration_start') this.turns = Math.max(this.turns, event.iteration);
    else if (event.event === 'subagent_end')
      this.subagents = {
        subagentInputTokens: this.subagents.subagentInputTokens + event.input_tokens,
        subagentOutputTokens: this.subagents.subagentOutputTokens + event.output_tokens,
        subagentUsd: this.subagents.subagentUsd + event.usd,
        subagentRequests: this.subagents.subagentRequests + event.requests,
      };
    else if (event.event === 'task_verdict')
      this.trustedEditedTests = event.tests_run === 'workspace' ? (event.tests_edited?.length ?? 0) : 0;
    this.sofar = addToTotals(this.sofar, event);
    this.metrics.add(event);
    this.last = event;
  }

  totals(): RunTotals {
    const last = this.last;
    if (last?.event !== 'terminate') {
      return {
        final: false,
        clock: this.clock,
        reason: null,
        complete: null,
        verdict: null,
        durationMs: last?.ts ?? 0,
        ...this.sofar,
        wastedTokens: null,
        errorsSeen: null,
        attempts: null,
        httpRequests: null,
        failedAttempts: null,
        failedToolRuns: null,
        titled: null,
        turns: this.turns,
        trustedEditedTests: null,
        ...this.subagents,
        moduleLines: { ...this.counts },
      };
    }
    const m = this.metrics.metrics();
    return {
      final: true,
      clock: this.clock,
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
      httpRequests: m.httpRequests,
      failedAttempts: m.failedAttempts,
      failedToolRuns: this.failedToolRuns,
      titled: this.titled,
      turns: this.turns,
      trustedEditedTests: this.trustedEditedTests,
      ...this.subagents,
      moduleLines: { ...this.counts },
    };
  }
}
