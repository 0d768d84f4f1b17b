import { z } from 'zod';
import type { RunEvent } from '../events';
import { isStoredEvent } from './stored-event';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** An event the server read back from its store: its envelope checked (stored-event.ts). */
export const StoredEventSchema = z.custom<RunEvent>(isStoredEvent, {
  message: 'not a stored event (run_id, seq, event)',
});

/**
 * GET /api/runs/{id}/view: a finished run (its stored log ends with terminate) folded by the
 * server with the browser's own reducer, with the events the view names by seq (`named`, in seq
 * order: what the why lines read), not the whole log — the page draws the run from this and
 * reads the rest of the log (the inspector's raw events) after its first paint, from GET
 * /api/runs/{id}/trace. A run still going answers `finished: false`, and the page reads its
 * event stream instead. The view's type is the run view's fold (lib/run-view), named
 * by the one who parses it; here its shape is checked as far as the page relies on it at once.
 */
export function finishedRunViewSchema<View extends object>() {
  return z.discriminatedUnion('finished', [
    z.object({ finished: z.literal(false) }).strict(),
    z
      .object({
        finished: z.literal(true),
        view: z.custom<View>(
          (value) =>
            isObject(value) &&
            Array.isArray(value.turns) &&
            Number.isInteger(value.lastSeq) &&
            isObject(value.terminate),
          {
            message: 'not a finished run view',
          },
        ),
        named: z.array(StoredEventSchema),
      })
      .strict(),
  ]);
}
