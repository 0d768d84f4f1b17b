'use client';

import { useEffect } from 'react';
import { useRunStoreApi } from '../run-view/run-store-provider';

/** The address of one turn of a run page: `/runs/<id>?turn=<n>` (a fork's "from parent" badge links here). */
export function runTurnHref(runId: string, turn: number): string {
  return `/runs/${encodeURIComponent(runId)}?turn=${turn}`;
}

/**
 * Selects the turn a run page's address names (`?turn=n`) as soon as that turn has been folded
 * from the stream — the turn list then scrolls to it — once, so the user's own clicks win.
 */
export function useTurnFromUrl(): void {
  const api = useRunStoreApi();
  useEffect(() => {
    const turn = Number(new URLSearchParams(window.location.search).get('turn'));
    if (!Number.isInteger(turn) || turn < 1) return;
    const trySelect = (): boolean => {
      const { view, selection } = api.getState();
      if (!view.turns.some((t) => t.iteration === turn)) return false;
      if (!selection) api.getState().select({ kind: 'turn', iteration: turn });
      return true;
    };
    if (trySelect()) return;
    const unsubscribe = api.subscribe(() => {
      if (trySelect()) unsubscribe();
    });
    return unsubscribe;
  }, [api]);
}
