import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RunEvent } from '@/lib/protocol';
import { foldValues } from './load-fold';
import { initialRunViewState, type RunViewState } from './run-view-state';

/** What the inspector shows; one item at a time. */
export type Selection =
  | { kind: 'turn'; iteration: number }
  | { kind: 'attempt'; iteration: number; requestNo: number }
  | { kind: 'tool'; iteration: number; key: string }
  | { kind: 'marker'; seq: number };

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'closed' | 'error';

export interface RunStoreState {
  view: RunViewState;
  /**
   * The raw log, append-only. Mutated in place (pushing is O(1)), or set whole with a finished
   * run's folded view (showFolded); read on demand by the inspector — `view.eventCount` tells when it grew.
   */
  log: RunEvent[];
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
  /** Shows a finished run the server folded with the same reducer (GET /api/runs/{id}/view), with its log. */
  showFolded: (view: RunViewState, log: RunEvent[]) => void;
  setConnection: (connection: ConnectionState) => void;
  select: (selection: Selection | undefined) => void;
  setInspectorOpen: (open: boolean) => void;
}

export type RunStore = StoreApi<RunStoreState>;

/**
 * A run store per page (the zustand Next.js guide's pattern, never a module global): the
 * view changes only by folding events through the pure reducer.
 */
export function createRunStore(initial: RunViewState = initialRunViewState()): RunStore {
  // Folded but not yet shown (between foldEvents and commit).
  let folded: RunViewState | undefined;
  return createStore<RunStoreState>()((set, get) => ({
    view: initial,
    log: [],
    receivedAt: 0,
    connection: 'idle',
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
    showFolded: (view, log) => {
      folded = undefined;
      set({ view, log, receivedAt: Date.now() });
    },
    setConnection: (connection) => set({ connection }),
    select: (selection) => set({ selection }),
    setInspectorOpen: (inspectorOpen) => set({ inspectorOpen }),
  }));
}
