import type { RunEvent } from '@/lib/protocol';
import type { RunViewState } from './run-view-state';

/**
 * Every seq the view names: each `seq` field anywhere in it (a turn's attempts and their
 * recovery steps, tool calls, guards, fallbacks, markers, swaps, the terminate, …) — the events
 * the run's drawing reads from the log by seq (the why lines). Ascending.
 */
export function namedSeqs(view: RunViewState): number[] {
  const seqs = new Set<number>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, field] of Object.entries(value)) {
        if (key === 'seq' && typeof field === 'number') seqs.add(field);
        else walk(field);
      }
    }
  };
  walk(view);
  return [...seqs].sort((a, b) => a - b);
}

/**
 * The events of a log the view names, in seq order: what a page needs from the log to draw the
 * view (GET /api/runs/{id}/view sends these with the view; the rest of the log comes after the paint).
 */
export function namedEvents(view: RunViewState, log: readonly RunEvent[]): RunEvent[] {
  const bySeq = new Map(log.map((event) => [event.seq, event]));
  return namedSeqs(view).flatMap((seq) => bySeq.get(seq) ?? []);
}
