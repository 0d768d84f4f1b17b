import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RunEvent } from '@/lib/protocol';
import { foldValues } from './load-fold';
import { initialRunViewState, type RunViewState } from '@/lib/run-view/run-view-state';

/** What the inspector shows; one item at a time. */
export type Selection =
  | { kind: 'turn'; iteration: number }
  | { kind: 'attempt'; iteration: number; requestNo: number }
  | { kind: 'tool'; iteration: number; key: string }
  | { kind: 'marker'; seq: number };

export interface LogLoad {
  received: number;
  total: number;
  whole: boolean;
  error?: string;
}

/** The log holds every event folded: a streamed run's, or a folded run's once the rest has arrived. */
export const logWhole = (s: Pick<RunStoreState, 'logLoad'>): boolean =>
  s.logLoad === undefined || s.logLoad.whole;

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'closed' | 'error';

export interface RunStoreState {
  view: RunViewState;
  /**
   * The raw log, append-only. Mutated in place (pushing is O(1)); a finished run shown folded
   * (showFolded) holds only the events its view names until the rest arrives (fillLog). Read on
   * demand by the inspector and the why lines — `view.eventCount` tells when it grew. Ordered by seq.
   */
  log: RunEvent[];
  /**
   * A finished run shown folded, its log read after the paint: how many of its events are in so
   * far, of how many, whether all are, and why the rest never came if the read failed. Undefined
   * for a run read from its event stream (its log holds every event folded).
   */
  logLoad?: LogLoad;
  /** Wall time (ms) when the latest batch was folded: anchors the live run clock. */
  receivedAt: number;
  connection: ConnectionState;
  selection?: Selection;
  inspectorOpen: boolean;
  /** Folds events and shows the result (foldEvents, then commit). */
  applyEvents: (raws: readonly unknown[]) => void;
  /**
   * Folds events into the view without showing it yet (after loadFold: each is checked against the union): no subscriber runs until `commit`. A long
   * backlog (a finished run replayed) is folded in slices and drawn once, not once a slice.
   */
  foldEvents: (raws: readonly unknown[]) => void;
  /** Shows what was folded since the last commit. */
  commit: () => void;
  /**
   * Shows a finished run the server folded with the same reducer (GET /api/runs/{id}/view), with
   * the events its view names; the log is loading (logLoad) until fillLog.
   */
  showFolded: (view: RunViewState, named: RunEvent[]) => void;
  /** How many of the log's events have arrived so far. */
  logProgress: (received: number) => void;
  /** The whole log of the run shown folded. */
  fillLog: (log: RunEvent[]) => void;
  /** The rest of the log could not be read: the page keeps the events its view names and says so. */
  logFailed: (error: string) => void;
  setConnection: (connection: ConnectionState) => void;
  select: (selection: Selection | undefined) => void;
  setInspectorOpen: (open: boolean) => void;
}

export type RunStore = StoreApi<RunStoreState>;

/** A finished run folded by the server (GET /api/runs/{id}/view's view and the events it names). */
export interface FoldedRun {
  view: RunViewState;
  named: RunEvent[];
}

/**
 * A run store per page (the zustand Next.js guide's pattern, never a module global): the
 * view changes only by folding events through the pure reducer. `shown`: a finished run the
 * store starts with, as showFolded shows one — its initial state, so a render on the server
 * (where a store's initial state is what is drawn) draws the run.
 */
export function createRunStore(initial: RunViewState = initialRunViewState(), shown?: FoldedRun): RunStore {
  // Folded but not yet shown (between foldEvents and commit).
  let folded: RunViewState | undefined;
  return createStore<RunStoreState>()((set, get) => ({
    view: shown?.view ?? initial,
    log: shown?.named ?? [],
    ...(shown ? { logLoad: { received: 0, total: shown.view.eventCount, whole: false } } : {}),
    receivedAt: 0,
    connection: shown ? 'closed' : 'idle',
    selection: undefined,
    inspectorOpen: false,
    applyEvents: (raws) => {
      get().foldEvents(raws);
      get().commit();
    },
    foldEvents: (raws) => {
      const view = foldValues(folded ?? get().view, get().log, raws);
      if (view !== get().view) folded = view;
    },
    commit: () => {
      const view = folded;
      folded = undefined;
      if (view !== undefined && view !== get().view) set({ view, receivedAt: Date.now() });
    },
    showFolded: (view, named) => {
      folded = undefined;
      set({
        view,
        log: named,
        logLoad: { received: 0, total: view.eventCount, whole: false },
        receivedAt: Date.now(),
      });
    },
    logProgress: (received) => {
      const load = get().logLoad;
      if (load && !load.whole && !load.error && load.received !== received)
        set({ logLoad: { ...load, received } });
    },
    fillLog: (log) => {
      const load = get().logLoad;
      set({ log, logLoad: load && { ...load, received: log.length, whole: true } });
    },
    logFailed: (error) => {
      const load = get().logLoad;
      if (load && !load.whole) set({ logLoad: { ...load, error } });
    },
    setConnection: (connection) => set({ connection }),
    select: (selection) => set({ selection }),
    setInspectorOpen: (inspectorOpen) => set({ inspectorOpen }),
  }));
}
