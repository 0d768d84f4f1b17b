import type { RunEvent } from '@/lib/protocol';
import { safeParseEvent } from '@/lib/protocol/events';
import { reduceCheckedEvent, reduceRunEvent } from '@/lib/run-view/reduce-run-event';
import type { RunViewState } from '@/lib/run-view/run-view-state';

/**
 * The run store's fold (loaded after the page's first paint, with zod and the event schemas:
 * load-fold.ts): each value checked against the event union, a new event appended to the log
 * and folded into the view; anything the protocol does not know is counted and skipped.
 */
export function foldChecked(view: RunViewState, log: RunEvent[], raws: readonly unknown[]): RunViewState {
  let next = view;
  for (const raw of raws) {
    const checked = safeParseEvent(raw);
    if (checked.ok && checked.event.seq > next.lastSeq) {
      log.push(checked.event);
      next = reduceRunEvent(next, checked.event);
    } else if (!checked.ok) {
      next = reduceCheckedEvent(next, raw, checked);
    }
  }
  return next;
}
