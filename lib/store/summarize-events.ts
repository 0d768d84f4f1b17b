import {
  runOutcome,
  type RunEvent,
  type ScheduledSwap,
  type TaskVerdict,
  type TerminateReason,
} from '@/lib/protocol';
import type { RowTotals, RunStatus } from './run-store';
import { routeEventOf, type RouteEvent } from './run-route';

/**
 * What a batch of events changes in a run's summary row. Computed in memory so appending
 * costs one UPDATE per batch instead of a re-scan of the log: fields are null when the
 * batch says nothing about them. The tokens and cost are the run's totals after the batch's
 * last event, as the batch brought them (folded once, by the run's log): nothing here folds.
 */
export interface SummaryDelta {
  count: number;
  firstSeq: number;
  maxTs: number;
  iterations: number;
  inputTokens: number;
  outputTokens: number;
  usd: number;
  vendor: string | null;
  model: string | null;
  scenario: string | null;
  status: RunStatus | null;
  reason: TerminateReason | null;
  complete: boolean | null;
  verdict: TaskVerdict | null;
  title: string | null;
  /** The batch's vendor and model changes (swaps, fallback models, a fork's start), in order. */
  route: RouteEvent[];
  /** Swaps made by hand in the batch, as their events record them into the run's config. */
  recordedSwaps: ScheduledSwap[];
}

export function summarizeEvents(events: readonly RunEvent[], totals: RowTotals): SummaryDelta {
  const delta: SummaryDelta = {
    count: events.length,
    firstSeq: events[0]?.seq ?? 0,
    maxTs: 0,
    iterations: 0,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    usd: totals.usd,
    vendor: null,
    model: null,
    scenario: null,
    status: null,
    reason: null,
    complete: null,
    verdict: null,
    title: null,
    route: [],
    recordedSwaps: [],
  };
  for (const event of events) {
    delta.maxTs = Math.max(delta.maxTs, event.ts);
    const step = routeEventOf(event);
    if (step) delta.route.push(step);
    switch (event.event) {
      case 'run_start':
        delta.vendor = event.vendor;
        delta.model = event.model;
        delta.scenario = event.scenario.id;
        break;
      case 'iteration_start':
        delta.iterations += 1;
        break;
      case 'swap':
        if (event.recorded_as) delta.recordedSwaps.push(event.recorded_as);
        break;
      case 'run_title':
        delta.title = event.title;
        break;
      case 'task_verdict':
        delta.verdict = event.verdict;
        break;
      case 'terminate':
        delta.reason = event.reason;
        delta.complete = event.complete;
        delta.status = runOutcome(event);
        break;
      default:
        break;
    }
  }
  return delta;
}
