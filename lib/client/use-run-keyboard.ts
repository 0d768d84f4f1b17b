'use client';

import { useEffect, useRef } from 'react';
import { useRunStoreApi } from './run-store-provider';

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

/**
 * Keyboard: r run, a or Escape abort, j / k step between turns, i toggle the inspector.
 * Keys typed into form fields are left alone.
 */
export function useRunKeyboard({ onRun, onAbort }: { onRun?: () => void; onAbort?: () => void }): void {
  const store = useRunStoreApi();
  const handlers = useRef({ onRun, onAbort });
  useEffect(() => {
    handlers.current = { onRun, onAbort };
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      const state = store.getState();
      switch (e.key) {
        case 'r':
          handlers.current.onRun?.();
          break;
        case 'a':
        case 'Escape':
          handlers.current.onAbort?.();
          break;
        case 'i':
          state.setInspectorOpen(!state.inspectorOpen);
          break;
        case 'j':
        case 'k': {
          const turns = state.view.turns;
          if (turns.length === 0) return;
          const sel = state.selection;
          const current = sel && 'iteration' in sel ? turns.findIndex((t) => t.iteration === sel.iteration) : -1;
          const next =
            current === -1 ? (e.key === 'j' ? 0 : turns.length - 1) : Math.min(turns.length - 1, Math.max(0, current + (e.key === 'j' ? 1 : -1)));
          state.select({ kind: 'turn', iteration: turns[next]!.iteration });
          break;
        }
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
