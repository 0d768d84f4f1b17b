'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createRunStore, type RunStore, type RunStoreState } from './run-store';

const RunStoreContext = createContext<RunStore | null>(null);

/** One store per mounted run view; key the provider by run id to start afresh. */
export function RunStoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createRunStore());
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
