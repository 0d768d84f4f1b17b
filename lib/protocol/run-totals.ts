import type { RunEvent } from './events';

/** Tokens and dollars a run has spent: what its terminate event states at the end. */
export interface RunTotals {
  inputTokens: number;
  outputTokens: number;
  usd: number;
}

export const NO_TOTALS: Readonly<RunTotals> = Object.freeze({ inputTokens: 0, outputTokens: 0, usd: 0 });

/**
 * The one totals fold over a run's log. Every answered model call (foreground or background)
 * is an llm_call: its usage adds up, and its `usd_so_far` is the run's cost so far (summing the
 * rounded per-call `usd` would drift). A terminate states the final totals, which replace the sum.
 * Returns the same object for any other event, so a caller can fold on every event cheaply.
 */
export function addToTotals(totals: Readonly<RunTotals>, event: RunEvent): Readonly<RunTotals> {
  switch (event.event) {
    case 'llm_call':
      return {
        inputTokens: totals.inputTokens + event.input_tokens,
        outputTokens: totals.outputTokens + event.output_tokens,
        usd: Math.max(totals.usd, event.usd_so_far),
      };
    case 'terminate':
      return { inputTokens: event.input_tokens, outputTokens: event.output_tokens, usd: event.usd_so_far };
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

/** Cost in whole picodollars: float sums of the same calls in another order agree here, and one token of the cheapest model is 150,000 of them. */
export function exactUsd(usd: number): number {
  return Math.round(usd * 1e12);
}
