import type { RunEvent } from '@/lib/protocol';
import type { RunStore } from '@/lib/store';

/** Logs held between requests: two sides of a comparison and a few recent ones. */
const MAX_LOGS = 8;

/** Reads a run's whole log, keeping it for the next request. */
export interface RunLogCache {
  read(runId: string): readonly RunEvent[];
}

/**
 * Whole logs for GET /api/compare, which the compare page asks for again after each burst of
 * a live side's events: re-reading and re-parsing both whole logs every time cost ~27 ms at
 * 2,000 events a side. A log is append-only, so a held log reads only the events after its
 * last seq, and a log that ends with `terminate` is not read again. The least recently read
 * log is dropped past MAX_LOGS. What it returns is exactly what `store.readEvents` returns.
 */
export function createRunLogCache(options: { store: RunStore; max?: number }): RunLogCache {
  const { store } = options;
  const max = options.max ?? MAX_LOGS;
  const held = new Map<string, readonly RunEvent[]>();
  return {
    read(runId) {
      const before = held.get(runId);
      held.delete(runId); // re-inserted below: the Map's order is the recency order
      let events: readonly RunEvent[];
      if (!before) events = store.readEvents({ runId });
      else if (before.at(-1)?.event === 'terminate') events = before;
      else {
        const newer = store.readEvents({ runId, afterSeq: before.at(-1)?.seq ?? -1 });
        events = newer.length === 0 ? before : before.concat(newer);
      }
      held.set(runId, events);
      while (held.size > max) held.delete(held.keys().next().value!);
      return events;
    },
  };
}

const caches = new WeakMap<RunStore, RunLogCache>();

/** The process-wide cache over a store (one per store, so a test's temporary store gets its own). */
export function runLogCacheOf(store: RunStore): RunLogCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = createRunLogCache({ store });
    caches.set(store, cache);
  }
  return cache;
}
