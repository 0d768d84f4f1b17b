import 'server-only';
import type { z } from 'zod';
import type { finishedRunViewSchema } from '@/lib/protocol/http';
import { foldLog } from '@/lib/run-view/fold-log';
import { namedEvents } from '@/lib/run-view/named-events';
import { initialRunViewState, type RunViewState } from '@/lib/run-view/run-view-state';
import { getStore, type RunStore } from '@/lib/store';
import { getRunRegistry } from './get-run-registry';

/** GET /api/runs/{id}/view's body, typed by its schema with the browser's view. */
export type FinishedRunView = z.output<ReturnType<typeof finishedRunViewSchema<RunViewState>>>;

export interface FinishedRunViews {
  /** The body for a run: its JSON, folded and written once a finished run; undefined for an unknown run. */
  body(runId: string): Promise<string | undefined>;
}

/** Events folded between two yields to the event loop (a few ms each), so other requests and runs are not held up. */
const SLICE = 2_000;
const STILL_GOING = JSON.stringify({ finished: false } satisfies FinishedRunView);

/**
 * Finished runs folded on the server: a finished log never changes, so its view is folded once
 * with the browser's own reducer (fold-log.ts) and the response body kept for the newest
 * `keep` runs opened. The body holds the view and the events it names (named-events.ts), not
 * the whole log: a long run's log is most of its bytes, and the page reads it after drawing. A run is finished when its stored log ends with terminate; a run still
 * being played (`isLive`, or a log without its terminate) answers `finished: false`.
 */
export function createFinishedRunViews({
  store,
  isLive,
  keep = 4,
}: {
  store: RunStore;
  isLive: (runId: string) => boolean;
  keep?: number;
}): FinishedRunViews {
  // Insertion order is the order of last use (a hit is moved to the end).
  const kept = new Map<string, Promise<string>>();

  const fold = async (runId: string): Promise<string> => {
    const log = store.readEvents({ runId });
    if (log.at(-1)?.event !== 'terminate') return STILL_GOING;
    let view = initialRunViewState();
    for (let start = 0; start < log.length; start += SLICE) {
      view = foldLog(log.slice(start, start + SLICE), view);
      if (start + SLICE < log.length) await new Promise((resolve) => setImmediate(resolve));
    }
    return JSON.stringify({ finished: true, view, named: namedEvents(view, log) } satisfies FinishedRunView);
  };

  return {
    async body(runId) {
      const hit = kept.get(runId);
      if (hit) {
        kept.delete(runId);
        kept.set(runId, hit);
        return hit;
      }
      const summary = store.getRun(runId)?.summary;
      if (!summary) return undefined;
      if (summary.status === 'running' || isLive(runId)) return STILL_GOING;
      // Kept before it settles: a second open meanwhile waits for the same fold.
      const folded = fold(runId);
      kept.set(runId, folded);
      while (kept.size > keep) kept.delete(kept.keys().next().value!);
      const body = await folded.catch((error: unknown) => {
        kept.delete(runId);
        throw error;
      });
      if (body === STILL_GOING) kept.delete(runId);
      return body;
    },
  };
}

const globalForViews = globalThis as typeof globalThis & { __loopLabFinishedRunViews?: FinishedRunViews };

/** The process-wide finished views, over the process's store and run registry. */
export function getFinishedRunViews(): FinishedRunViews {
  globalForViews.__loopLabFinishedRunViews ??= createFinishedRunViews({
    store: getStore(),
    isLive: (runId) => getRunRegistry().isLive(runId),
  });
  return globalForViews.__loopLabFinishedRunViews;
}
