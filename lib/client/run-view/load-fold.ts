import type { RunEvent } from '@/lib/protocol';
import type { RunViewState } from '@/lib/run-view/run-view-state';

/**
 * The run store's fold — the event union's check (zod and every event's schema) and the
 * reducer — loaded after the page's first paint: with a run's first events, or ahead at the
 * visitor's first input (components/controls/playground.tsx). Until it is loaded nothing is folded (the sliced fold waits for it).
 */
type Fold = (view: RunViewState, log: RunEvent[], raws: readonly unknown[]) => RunViewState;

let fold: Fold | undefined;
let loading: Promise<void> | undefined;

export function loadFold(): Promise<void> {
  loading ??= import('./fold-checked').then((module) => {
    fold = module.foldChecked;
  });
  return loading;
}

export function foldLoaded(): boolean {
  return fold !== undefined;
}

/** Folds values into a view (see fold-checked.ts); throws when called before loadFold settled (a bug in the caller). */
export function foldValues(view: RunViewState, log: RunEvent[], raws: readonly unknown[]): RunViewState {
  if (!fold) throw new Error('the fold is not loaded yet: fold after loadFold()');
  return fold(view, log, raws);
}
