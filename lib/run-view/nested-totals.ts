import type { RunViewState } from './run-view-state';

/** What the loops run under a run's tool calls (sub-agents) spent, every try of each counted. */
export interface NestedTotals {
  /** Tries started (a child run again counts twice). */
  runs: number;
  usd: number;
  inputTokens: number;
  outputTokens: number;
  /** Their model requests (HTTP attempts), foreground and background. */
  requests: number;
}

/**
 * The nested runs' totals, apart from the run's own (the run's totals count its own calls only):
 * each try's folded totals and requests, summed over every turn.
 */
export function nestedTotals(s: Pick<RunViewState, 'turns'>): NestedTotals {
  const out: NestedTotals = { runs: 0, usd: 0, inputTokens: 0, outputTokens: 0, requests: 0 };
  for (const turn of s.turns)
    for (const n of turn.nested ?? []) {
      out.runs += 1;
      out.usd += n.run.totals.usd;
      out.inputTokens += n.run.totals.inputTokens;
      out.outputTokens += n.run.totals.outputTokens;
      out.requests += n.run.requests;
    }
  return out;
}
