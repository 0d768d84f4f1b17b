import { ComparisonFold, type ComparisonOptions } from '@/lib/compare/compare-runs';
import type { Comparison } from '@/lib/protocol/http/compare';
import { trustedEventJson } from '@/lib/protocol';
import { eventPages, type RunStore } from '@/lib/store';

/** Comparisons held between requests: the one on screen and a few recent ones. */
const MAX_PAIRS = 4;

/** Compares two runs, keeping what the next request for the same pair needs. */
export interface ComparisonCache {
  /** Requests for one pair are answered one at a time, each folding what the one before left. */
  compare(a: string, b: string, options?: ComparisonOptions): Promise<Comparison>;
  /** What is held, for tests and the bench: pairs, and steps one side has that the other has not reached. */
  held(): { pairs: number; steps: number };
}

/**
 * For GET /api/compare, which the compare page asks for again after each burst of a live
 * side's events. Folding both whole logs on every request cost time in proportion to the
 * logs, and holding whole logs cost their memory. What is held per pair is a ComparisonFold:
 * each side's turns condensed (what the page shows), its totals folds (a few numbers and one
 * small record per model request), its end lines, and the steps the divergence scan has not
 * settled yet (one side's lead over the other; none once they diverge or both end). Not the
 * events. A request reads only the events after the last seq each side has folded (a side
 * that ended is not read again) and answers from the folds. The least recently asked pair is
 * dropped past MAX_PAIRS. What it returns is exactly compareRuns over the whole logs.
 */
export function createComparisonCache(options: { store: RunStore; max?: number }): ComparisonCache {
  const { store } = options;
  const max = options.max ?? MAX_PAIRS;
  /** Each pair's fold, and its last request (the next waits for it: two never read and fold at once). */
  const held = new Map<string, { fold: ComparisonFold; last: Promise<unknown> }>();
  const update = async (fold: ComparisonFold, a: string, b: string): Promise<void> => {
    for (const [side, runId] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const run = fold[side];
      if (run.ended) continue;
      // A page of rows at a time: a long side is folded without holding its whole log.
      for await (const page of eventPages(store, { runId, afterSeq: run.lastSeq }))
        fold.add(
          side,
          page.map((row) => trustedEventJson(row.body)),
        );
    }
  };
  return {
    compare(a, b, options = {}) {
      const key = `${a}\u0000${b}`;
      const entry = held.get(key) ?? { fold: new ComparisonFold(), last: Promise.resolve() };
      held.delete(key); // re-inserted below: the Map's order is the recency order
      held.set(key, entry);
      while (held.size > max) held.delete(held.keys().next().value!);
      const answer = entry.last.then(async () => {
        await update(entry.fold, a, b);
        return entry.fold.comparison(a, b, options);
      });
      entry.last = answer.catch(() => {});
      return answer;
    },
    held() {
      let steps = 0;
      for (const { fold } of held.values()) steps += fold.scan.held;
      return { pairs: held.size, steps };
    },
  };
}

const caches = new WeakMap<RunStore, ComparisonCache>();

/** The process-wide cache over a store (one per store, so a test's temporary store gets its own). */
export function comparisonCacheOf(store: RunStore): ComparisonCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = createComparisonCache({ store });
    caches.set(store, cache);
  }
  return cache;
}
