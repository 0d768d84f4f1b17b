'use client';

import { useEffect } from 'react';
import { api } from '../api/client';
import { openEventStream } from '../api/event-stream';
import { useRunStoreApi } from '../run-view/run-store-provider';
import { loadFold } from '../run-view/load-fold';
import { createSlicedFold } from '../run-view/sliced-fold';

/**
 * Fills the page's run store with a run shared by link, read only through the link's routes
 * (`/api/shared/{token}/view`, then `/events` for a run still going): the same fold and the same
 * first paint as the run page (use-run-events.ts), without the rest of the log read after it.
 */
export function useSharedRun(token: string): void {
  const store = useRunStoreApi();
  useEffect(() => {
    const { setConnection } = store.getState();
    setConnection('connecting');
    let stopped = false;
    let close: (() => void) | undefined;
    const follow = () => {
      if (stopped) return;
      void loadFold();
      const fold = createSlicedFold({
        store,
        onShown: () => {
          if (store.getState().view.terminate) {
            stream.close();
            setConnection('closed');
          }
        },
      });
      const stream = openEventStream(`/api/shared/${encodeURIComponent(token)}/events`, {
        onOpen: () => setConnection('open'),
        onMessage: (value) => fold.push(value),
        onError: (closed) => {
          if (!store.getState().view.terminate) setConnection(closed ? 'error' : 'connecting');
        },
      });
      close = () => {
        stream.close();
        fold.stop();
        fold.drain();
      };
    };
    api.sharedView(token).then((answer) => {
      if (stopped) return;
      if (!answer.finished) return follow();
      store.getState().showFolded(answer.view, answer.named);
      setConnection('closed');
    }, follow);
    return () => {
      stopped = true;
      close?.();
    };
  }, [token, store]);
}
