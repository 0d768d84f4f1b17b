import { beforeAll, describe, expect, it, vi } from 'vitest';
import { readRecoveringRun } from '@/lib/testing/fixtures/recovering-run';
import { loadFold } from './load-fold';
import { foldRawEvents } from './fold-raw-events';
import { createRunStore } from './run-store';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { createSlicedFold, SLICE_MS } from './sliced-fold';

/** A run the real engine made (`npm run fixtures`), its events as the stream delivers them. */
const events: unknown[] = readRecoveringRun();

/** A clock that moves 1 ms every time it is read: a fold of any length runs past a slice. */
function tickingClock(): { now: () => number; reads: () => number } {
  let t = 0;
  return { now: () => (t += 1), reads: () => t };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!done()) throw new Error('the sliced fold never finished');
}

describe('the fold, loaded after the first paint', () => {
  it('folds nothing before it is loaded; what arrived meanwhile is folded in order once it is', async () => {
    // Fresh modules: the fold not loaded yet, as on a page that just painted.
    vi.resetModules();
    const fresh = {
      store: await import('./run-store'),
      fold: await import('./sliced-fold'),
      loader: await import('./load-fold'),
    };
    const store = fresh.store.createRunStore();
    const fold = fresh.fold.createSlicedFold({ store, onShown: () => {} });
    for (const raw of events) fold.push(raw);
    expect(fresh.loader.foldLoaded()).toBe(false);
    expect(store.getState().view.eventCount).toBe(0);
    await until(() => store.getState().view.terminate !== undefined);
    expect(fresh.loader.foldLoaded()).toBe(true);
    expect(store.getState().view).toEqual(foldRawEvents(initialRunViewState(), events));
  });
});

describe('createSlicedFold', () => {
  beforeAll(loadFold);

  it('folds a replayed backlog in slices and draws it once, the same view as one fold of the whole log', async () => {
    const store = createRunStore();
    const shown: number[] = [];
    store.subscribe((s, prev) => {
      if (s.view !== prev.view) shown.push(s.view.eventCount);
    });
    const clock = tickingClock();
    const fold = createSlicedFold({ store, onShown: () => {}, now: clock.now, chunk: 8 });
    // Another task of the page, ticking while the fold runs: the turns it got between folds.
    let pageTurns = 0;
    let ticking = true;
    const tick = () => {
      pageTurns += 1;
      if (ticking) setTimeout(tick, 0);
    };
    tick();
    const folds: number[] = [];
    const foldEvents = store.getState().foldEvents;
    store.setState({ foldEvents: (raws) => (folds.push(pageTurns), foldEvents(raws)) });

    for (const raw of events) fold.push(raw);
    await until(() => store.getState().view.terminate !== undefined);
    ticking = false;

    expect(store.getState().view).toEqual(foldRawEvents(initialRunViewState(), events));
    // The first event on screen at once, then the rest in one draw.
    expect(shown).toEqual([1, events.length]);
    // Every look at the clock costs 1 ms here, so the rest was folded in several slices with the page's own tasks between them.
    expect(folds.length).toBeGreaterThanOrEqual(events.length / 8);
    expect(new Set(folds).size).toBeGreaterThan(2);
    expect(clock.reads()).toBeGreaterThan(SLICE_MS);
    fold.stop();
  });

  it('shows a live run batch by batch: each batch drawn when its queue is empty', async () => {
    const store = createRunStore();
    let shownCount = 0;
    const fold = createSlicedFold({ store, onShown: () => (shownCount += 1) });
    fold.push(events[0]);
    expect(store.getState().view.eventCount).toBe(1);
    fold.push(events[1]);
    fold.push(events[2]);
    await until(() => store.getState().view.eventCount === 3);
    fold.push(events[3]);
    await until(() => store.getState().view.eventCount === 4);
    expect(shownCount).toBe(3);
    fold.stop();
  });

  it('drains what is queued when the view goes away', () => {
    const store = createRunStore();
    const fold = createSlicedFold({ store, onShown: () => {} });
    for (const raw of events.slice(0, 10)) fold.push(raw);
    fold.stop();
    fold.drain();
    expect(store.getState().view.eventCount).toBe(10);
  });
});
