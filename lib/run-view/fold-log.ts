import type { RunEvent } from '@/lib/protocol';
import { reduceRunEvent } from './reduce-run-event';
import { initialRunViewState, type RunViewState } from './run-view-state';

/**
 * A log already checked against the event union (a store's rows) folded by the one reducer,
 * from `view` on: what the server sends for a finished run (lib/server/finished-run-views.ts),
 * and what a page would fold from the same events as they stream in.
 */
export function foldLog(
  events: readonly RunEvent[],
  view: RunViewState = initialRunViewState(),
): RunViewState {
  let next = view;
  for (const event of events) next = reduceRunEvent(next, event);
  return next;
}
