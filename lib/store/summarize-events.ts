import { addToTotals, NO_TOTALS, runOutcome, type RunEvent, type ScheduledSwap, type RunTotals, type TaskVerdict, type TerminateReason } from '@/lib/protocol';
import type { RunStatus } from './run-store';
import { routeEventOf, type RouteEvent } from './run-route';

/**
 * What a batch of events changes in a run's summary row. Computed in memory so appending
 * costs one UPDATE per batch instead of a re-scan of the log: fields are null when the
 * batch says nothing about them.
 */
export interface SummaryDelta {
  count: number;
  firstSeq: number;
  maxTs: number;
  iterations: number;
  inputAdd: number;
  outputAdd: number;
  /** Totals from a terminate event, which override the running sums. */
  totalInput: number | null;
  totalOutput: number | null;
  usd: number | null;
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

export function summarizeEvents(events: readonly RunEvent[]): SummaryDelta {
  const delta: SummaryDelta = {
    count: events.length,
    firstSeq: events[0]?.seq ?? 0,
    maxTs: 0,
    iterations: 0,
    inputAdd: 0,
    outputAdd: 0,
    totalInput: null,
    totalOutput: null,
    usd: null,
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
  // The batch's share of the run's totals, by the one fold: a sum to add to the row, or, once
  // a terminate is in the batch, the final totals that replace it.
  let batch: Readonly<RunTotals> = NO_TOTALS;
  for (const event of events) {
    delta.maxTs = Math.max(delta.maxTs, event.ts);
    batch = addToTotals(batch, event);
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
      case 'llm_call':
        delta.usd = batch.usd;
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
        delta.totalInput = batch.inputTokens;
        delta.totalOutput = batch.outputTokens;
        delta.usd = batch.usd;
        delta.reason = event.reason;
        delta.complete = event.complete;
        delta.status = runOutcome(event);
        break;
      default:
        break;
    }
  }
  if (delta.totalInput === null) {
    delta.inputAdd = batch.inputTokens;
    delta.outputAdd = batch.outputTokens;
  }
  return delta;
}
