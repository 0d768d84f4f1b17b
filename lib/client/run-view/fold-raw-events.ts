import { safeParseEvent } from '@/lib/protocol/events';
import { reduceCheckedEvent } from '@/lib/run-view/reduce-run-event';
import type { RunViewState } from '@/lib/run-view/run-view-state';

/**
 * The reducer over raw values, with the event check imported here (zod and the event schemas):
 * for tests and scripts that fold a log at once. The page's run store loads the same check
 * after its first paint instead (load-fold.ts).
 */
export function reduceRawEvent(state: RunViewState, raw: unknown): RunViewState {
  return reduceCheckedEvent(state, raw, safeParseEvent(raw));
}

export function foldRawEvents(state: RunViewState, raws: readonly unknown[]): RunViewState {
  let s = state;
  for (const raw of raws) s = reduceRawEvent(s, raw);
  return s;
}
