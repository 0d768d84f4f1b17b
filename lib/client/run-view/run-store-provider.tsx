'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createRunStore, type FoldedRun, type RunStore, type RunStoreState } from './run-store';

export type { FoldedRun };

const RunStoreContext = createContext<RunStore | null>(null);

/**
 * One store per run. Key the provider by run id to start afresh with everything under it, or
 * pass `runKey`: a new key gets a new store while the children stay mounted (the playground's
 * controls are not rebuilt on every Run, which cost a paint's worth of time before the first event).
 * `folded`: the first store starts with that finished run shown, so the server's render of the
 * page draws it and the first paint needs no script (app/runs/[id]/page.tsx).
 */
export function RunStoreProvider({
  children,
  runKey,
  folded,
}: {
  children: ReactNode;
  runKey?: string;
  folded?: FoldedRun;
}) {
  const [current, setCurrent] = useState(() => ({ key: runKey, store: createRunStore(undefined, folded) }));
  let store = current.store;
  if (current.key !== runKey) {
    // A new run: a fresh store from this render on (React's "adjust state while rendering").
    const next = { key: runKey, store: createRunStore() };
    setCurrent(next);
    store = next.store;
  }
  return <RunStoreContext.Provider value={store}>{children}</RunStoreContext.Provider>;
}

export function useRunStoreApi(): RunStore {
  const store = useContext(RunStoreContext);
  if (!store) throw new Error('useRunStore must be used inside <RunStoreProvider>');
  return store;
}

/** Selects a slice; components re-render only when their slice changes by reference. */
export function useRunStore<T>(selector: (state: RunStoreState) => T): T {
  return useStore(useRunStoreApi(), selector);
}
