'use client';

import { useEffect } from 'react';
import { openRunStream, takeRunStream } from '../api/run-stream';
import { useRunStoreApi } from '../run-view/run-store-provider';
import { loadFold } from '../run-view/load-fold';
import { createSlicedFold } from '../run-view/sliced-fold';

/**
 * Subscribes the page's run store to a run's event stream: the one opened when the run was
 * created (run-stream.ts), else a fresh one. A fresh EventSource starts at seq 0, so a reload
 * shows everything; on a dropped connection the browser reconnects with Last-Event-ID and the
 * reducer skips anything it already folded. Events are folded by a sliced fold (the first at
 * once, later ones in batches, a long replay in slices that leave the page its frames, drawn
 * once). Closes itself after `terminate` so the browser does not reconnect to a finished run.
 */
export function useRunEvents(runId: string | undefined): void {
  const store = useRunStoreApi();
  useEffect(() => {
    if (!runId) return;
    const { setConnection } = store.getState();
    setConnection('connecting');
    // The fold (event check and reducer) is not in the page's first load: fetched now, while the stream connects.
    void loadFold();
    const run = takeRunStream(runId) ?? openRunStream(runId);
    const { stream } = run;
    const fold = createSlicedFold({
      store,
      onShown: () => {
        if (store.getState().view.terminate) {
          stream.close();
          setConnection('closed');
        }
      },
    });

    run.attach({
      onOpen: () => setConnection('open'),
      onMessage: (value) => fold.push(value),
      onError: (closed) => {
        if (store.getState().view.terminate) return;
        setConnection(closed ? 'error' : 'connecting');
      },
    });

    return () => {
      stream.close();
      fold.stop();
      fold.drain();
    };
  }, [runId, store]);
}
