import { foldLoaded, loadFold } from './load-fold';
import type { RunStore } from './run-store';

/** Events arriving within this many ms are folded in one store update (after the first). */
export const BATCH_MS = 25;
/** Longest a fold runs before the page gets the main thread back (a frame is ~16 ms). */
export const SLICE_MS = 10;
/** During a long backlog the view is shown at least this often, so a slow replay still moves. */
export const SHOW_EVERY_MS = 1000;
/** Events folded between two looks at the slice's clock. */
const CHUNK = 256;

export interface SlicedFoldOptions {
  store: RunStore;
  onShown: () => void;
  now?: () => number;
  /** Events folded between two looks at the clock. */
  chunk?: number;
}

export interface SlicedFold {
  /** One event as it arrived (parsed JSON, or undefined when it was not JSON). */
  push(raw: unknown): void;
  /** Folds and shows everything queued, at once (the view is going away). */
  drain(): void;
  /** Stops scheduling; what is queued stays unfolded. */
  stop(): void;
}

/**
 * Folds a run's incoming events into its store without holding the main thread: the first
 * event at once (it is on screen as soon as it arrives), later ones in batches every BATCH_MS,
 * each batch folded in slices of at most SLICE_MS with the page's frames in between. The view
 * is shown (committed, so React draws it) when the queue is empty — a live run's batch, or the
 * whole backlog of a finished run's replay, drawn once — or every SHOW_EVERY_MS meanwhile.
 * `onShown` runs after each commit. Nothing is folded before the fold (the event check and the
 * reducer) is loaded: it is not in the page's first load; events that arrive meanwhile wait in
 * the queue, in order.
 */
export function createSlicedFold({
  store,
  onShown,
  now = () => performance.now(),
  chunk = CHUNK,
}: SlicedFoldOptions): SlicedFold {
  let queue: unknown[] = [];
  let head = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  // Waiting for the fold (loaded after the page's first paint: load-fold.ts).
  let waiting = false;
  let shownAt = now();

  const show = () => {
    store.getState().commit();
    shownAt = now();
    onShown();
  };

  const step = () => {
    timer = undefined;
    if (stopped) return;
    if (!foldLoaded()) {
      waiting = true;
      void loadFold().then(() => {
        waiting = false;
        step();
      });
      return;
    }
    const started = now();
    const { foldEvents } = store.getState();
    while (head < queue.length && now() - started < SLICE_MS) {
      const end = Math.min(queue.length, head + chunk);
      foldEvents(queue.slice(head, end));
      head = end;
    }
    if (head >= queue.length) {
      queue = [];
      head = 0;
      show();
      return;
    }
    if (now() - shownAt >= SHOW_EVERY_MS) show();
    // The rest in a task of its own, after the page's pending work (input, frames, stream messages).
    timer = setTimeout(step, 0);
  };

  return {
    push(raw) {
      queue.push(raw);
      if (timer !== undefined || waiting) return;
      if (store.getState().view.eventCount === 0 && queue.length - head === 1) {
        // The first event: folded and shown now.
        step();
        return;
      }
      timer = setTimeout(step, BATCH_MS);
    },
    drain() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      // Without the fold loaded nothing can be folded: the view goes away as it was.
      if (head < queue.length && foldLoaded()) store.getState().foldEvents(queue.slice(head));
      queue = [];
      head = 0;
      store.getState().commit();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
