import { z } from 'zod';
import type { RunEvent } from '../events';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * An event the server read back from its store. Every stored row went through the event union
 * when it was appended, so here only its envelope is checked (run, seq, kind): checking the union
 * again for each of a long run's ~18,000 events took longer than everything else its open does.
 */
export const StoredEventSchema = z.custom<RunEvent>(
  (value) => isObject(value) && typeof value.run_id === 'string' && Number.isInteger(value.seq) && typeof value.event === 'string',
  { message: 'not a stored event (run_id, seq, event)' },
);

/**
 * GET /api/runs/{id}/view: a finished run (its stored log ends with terminate) folded by the
 * server with the browser's own reducer, with the log the view's events are read from (the
 * inspector, the why lines); a run still going answers `finished: false`, and the page reads
 * its event stream instead. The view's type is the browser's fold (lib/client/run-view), named
 * by the one who parses it; here its shape is checked as far as the page relies on it at once.
 */
export function finishedRunViewSchema<View extends object>() {
  return z.discriminatedUnion('finished', [
    z.object({ finished: z.literal(false) }).strict(),
    z
      .object({
        finished: z.literal(true),
        view: z.custom<View>((value) => isObject(value) && Array.isArray(value.turns) && Number.isInteger(value.lastSeq) && isObject(value.terminate), {
          message: 'not a finished run view',
        }),
        log: z.array(StoredEventSchema),
      })
      .strict(),
  ]);
}
