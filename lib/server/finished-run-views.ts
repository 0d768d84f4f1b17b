import 'server-only';
import type { z } from 'zod';
import type { finishedRunViewSchema } from '@/lib/protocol/http';
import { foldLog } from '@/lib/run-view/fold-log';
import { namedSeqs } from '@/lib/run-view/named-events';
import { initialRunViewState, type RunViewState } from '@/lib/run-view/run-view-state';
import { trustedEventJson, type RunEvent } from '@/lib/protocol';
import { eventPages, getStore, type RunStore } from '@/lib/store';
import { getRunRegistry } from './get-run-registry';

/** GET /api/runs/{id}/view's body, typed by its schema with the browser's view. */
export type FinishedRunView = z.output<ReturnType<typeof finishedRunViewSchema<RunViewState>>>;

export interface FinishedRunViews {
  /** The body for a run: its JSON, folded and written once a finished run; undefined for an unknown run. */
  body(runId: string): Promise<string | undefined>;
}

/** Events folded between two yields to the event loop (a few ms each), so other requests and runs are not held up. */
const SLICE = 2_000;
/** Bodies kept at most, in characters (about bytes: the JSON is mostly ASCII). */
const KEEP_CHARS = 32 * 1024 * 1024;
const STILL_GOING = JSON.stringify({ finished: false } satisfies FinishedRunView);

/**
 * Finished runs folded on the server: a finished log never changes, so its view is folded once
 * with the browser's own reducer (fold-log.ts) and the response body kept for the newest
 * `keep` runs opened, at most `keepChars` of them together (the least recently opened goes
 * first; a body larger than that alone is answered and not kept). The body holds the view and
 * the events it names (named-events.ts), not the whole log: a long run's log is most of its
 * bytes, and the page reads it after drawing. The log is read a page of rows at a time
 * (eventPages) and each page dropped once folded, so a fold's memory is one page and the view,
 * not the log; the named events are then read by seq, as stored. A run is finished when its
 * stored log ends with terminate; a run still being played (`isLive`, or a log without its
 * terminate) answers `finished: false`.
 */
export function createFinishedRunViews({
  store,
  isLive,
  keep = 4,
  keepChars = KEEP_CHARS,
}: {
  store: Pick<RunStore, 'getRun' | 'readEventBodies' | 'readEventBodiesAt'>;
  isLive: (runId: string) => Promise<boolean>;
  keep?: number;
  keepChars?: number;
}): FinishedRunViews {
  // Insertion order is the order of last use (a hit is moved to the end).
  const kept = new Map<string, Promise<string>>();
  /** Characters of each settled body kept (one still folding counts once it settles). */
  const sizes = new Map<string, number>();
  const drop = (runId: string): void => {
    kept.delete(runId);
    sizes.delete(runId);
  };
  const trim = (): void => {
    let chars = 0;
    for (const n of sizes.values()) chars += n;
    for (const runId of kept.keys()) {
      if (kept.size <= keep && chars <= keepChars) return;
      chars -= sizes.get(runId) ?? 0;
      drop(runId);
    }
  };

  const fold = async (runId: string): Promise<string> => {
    let view = initialRunViewState();
    let last: RunEvent | undefined;
    let first = true;
    for await (const page of eventPages(store, { runId, pageSize: SLICE })) {
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      first = false;
      const events = page.map((row) => trustedEventJson(row.body));
      view = foldLog(events, view);
      last = events.at(-1);
    }
    if (last?.event !== 'terminate') return STILL_GOING;
    // The named events as stored: their JSON goes into the body as it is, not parsed and written again.
    const named = (await store.readEventBodiesAt({ runId, seqs: namedSeqs(view) })).map((row) => row.body);
    return `{"finished":true,"view":${JSON.stringify(view)},"named":[${named.join(',')}]}`;
  };

  return {
    async body(runId) {
      const hit = kept.get(runId);
      if (hit) {
        kept.delete(runId);
        kept.set(runId, hit);
        return hit;
      }
      const summary = (await store.getRun(runId))?.summary;
      if (!summary) return undefined;
      if (summary.status === 'running' || (await isLive(runId))) return STILL_GOING;
      // Kept before it settles: a second open meanwhile waits for the same fold.
      const folded = fold(runId);
      kept.set(runId, folded);
      trim();
      const body = await folded.catch((error: unknown) => {
        drop(runId);
        throw error;
      });
      if (body === STILL_GOING) drop(runId);
      else if (kept.get(runId) === folded) {
        sizes.set(runId, body.length);
        trim();
      }
      return body;
    },
  };
}

const globalForViews = globalThis as typeof globalThis & {
  __loopLabFinishedRunViews?: { store: RunStore; views: FinishedRunViews };
};

/**
 * The process-wide finished views, over the process's store and run registry. Kept with the store
 * they read: when that store is replaced (a test file's data folder closed and another opened in the
 * same process), the views are made again over the new one instead of reading a closed database.
 */
export function getFinishedRunViews(): FinishedRunViews {
  const store = getStore();
  const kept = globalForViews.__loopLabFinishedRunViews;
  if (kept?.store === store) return kept.views;
  const views = createFinishedRunViews({ store, isLive: (runId) => getRunRegistry().isLive(runId) });
  globalForViews.__loopLabFinishedRunViews = { store, views };
  return views;
}
