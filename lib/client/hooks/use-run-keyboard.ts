'use client';

import { useEffect, useRef } from 'react';
import { useRunStoreApi } from '../run-view/run-store-provider';
import { runKeyAction } from './run-key-action';

function inField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog[open], [role="dialog"]') !== null;
}

/**
 * Keyboard: r run, a abort, Escape closes the inspector (or aborts when it is closed), j / k
 * step between turns, i toggle the inspector (lib/client/hooks/run-key-action.ts decides).
 */
export function useRunKeyboard({ onRun, onAbort }: { onRun?: () => void; onAbort?: () => void }): void {
  const store = useRunStoreApi();
  const handlers = useRef({ onRun, onAbort });
  useEffect(() => {
    handlers.current = { onRun, onAbort };
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const state = store.getState();
      const action = runKeyAction({
        key: e.key,
        modified: e.metaKey || e.ctrlKey || e.altKey,
        defaultPrevented: e.defaultPrevented,
        inField: inField(e.target),
        inDialog: inDialog(e.target),
        inspectorOpen: state.inspectorOpen,
      });
      switch (action) {
        case undefined:
          return;
        case 'run':
          handlers.current.onRun?.();
          break;
        case 'abort':
          handlers.current.onAbort?.();
          break;
        case 'toggle-inspector':
          state.setInspectorOpen(!state.inspectorOpen);
          break;
        case 'close-inspector':
          state.setInspectorOpen(false);
          break;
        case 'next-turn':
        case 'previous-turn': {
          const turns = state.view.turns;
          if (turns.length === 0) return;
          const sel = state.selection;
          const current =
            sel && 'iteration' in sel ? turns.findIndex((t) => t.iteration === sel.iteration) : -1;
          const forward = action === 'next-turn';
          const next =
            current === -1
              ? forward
                ? 0
                : turns.length - 1
              : Math.min(turns.length - 1, Math.max(0, current + (forward ? 1 : -1)));
          state.select({ kind: 'turn', iteration: turns[next]!.iteration });
          break;
        }
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
