import type { RunEvent } from './events';

/** Tokens and dollars a run has spent: what its terminate event states at the end. */
export interface RunTotals {
  /** Every prompt token sent, the part the vendor served from its cache included. */
  inputTokens: number;
  outputTokens: number;
  usd: number;
  /** Of inputTokens, what the vendors reported reading from their prompt caches. */
  cacheReadTokens: number;
  /** Of inputTokens, what the vendors reported writing to their prompt caches. */
  cacheWriteTokens: number;
  /** What the caches saved: the calls' cost had every input token been plain input, less what they cost. */
  cacheSavedUsd: number;
}

export const NO_TOTALS: Readonly<RunTotals> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  usd: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  cacheSavedUsd: 0,
});

/** The share of the prompt tokens sent that were read from a cache (0 when nothing was sent). */
export function cacheHitRate(totals: Pick<RunTotals, 'inputTokens' | 'cacheReadTokens'>): number {
  return totals.inputTokens > 0 ? totals.cacheReadTokens / totals.inputTokens : 0;
}

/**
 * The one totals fold over a run's log. Every answered model call (foreground or background)
 * is an llm_call: its usage adds up, and its `usd_so_far` is the run's cost so far (summing the
 * rounded per-call `usd` would drift). A terminate states the final tokens and cost, which replace
 * the sum; the cache figures are the sum of the calls' (a terminate does not restate them).
 * Returns the same object for any other event, so a caller can fold on every event cheaply.
 */
export function addToTotals(totals: Readonly<RunTotals>, event: RunEvent): Readonly<RunTotals> {
  switch (event.event) {
    case 'llm_call':
      return {
        inputTokens: totals.inputTokens + event.input_tokens,
        outputTokens: totals.outputTokens + event.output_tokens,
        usd: Math.max(totals.usd, event.usd_so_far),
        cacheReadTokens: totals.cacheReadTokens + (event.cache_read_tokens ?? 0),
        cacheWriteTokens: totals.cacheWriteTokens + (event.cache_write_tokens ?? 0),
        cacheSavedUsd: totals.cacheSavedUsd + (event.cache_saved_usd ?? 0),
      };
    case 'terminate':
      return {
        ...totals,
        inputTokens: event.input_tokens,
        outputTokens: event.output_tokens,
        usd: event.usd_so_far,
      };
    default:
      return totals;
  }
}

/** The totals of a whole log (or of a log so far). */
export function foldTotals(events: Iterable<RunEvent>): Readonly<RunTotals> {
  let totals: Readonly<RunTotals> = NO_TOTALS;
  for (const event of events) totals = addToTotals(totals, event);
  return totals;
}

/** The totals after each event of a log, in order: what a run's log hands on with each (a recorded log replayed as a run). */
export function runningTotals(events: readonly RunEvent[]): Readonly<RunTotals>[] {
  let totals: Readonly<RunTotals> = NO_TOTALS;
  return events.map((event) => (totals = addToTotals(totals, event)));
}

/** Cost in whole picodollars: float sums of the same calls in another order agree here, and one token of the cheapest model is 150,000 of them. */
export function exactUsd(usd: number): number {
  return Math.round(usd * 1e12);
}
