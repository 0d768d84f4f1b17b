'use client';

import { useEffect } from 'react';
import { api } from '../api/client';
import { openRunStream, takeRunStream, type RunStream } from '../api/run-stream';
import { useRunStoreApi } from '../run-view/run-store-provider';
import { loadFold } from '../run-view/load-fold';
import { createSlicedFold } from '../run-view/sliced-fold';

/**
 * Fills the page's run store with a run. A finished run the page was sent with, folded by the
 * server (its store starts with it shown: RunStoreProvider's `folded`), only has the rest of its
 * log read, after the first paint. A run just created has its stream opened already
 * (run-stream.ts): it is read from there. Any other run is asked for folded first (GET
 * /api/runs/{id}/view): a finished one arrives as the server's fold of its stored log, with the
 * events the view names, and is shown at once, with no stream and nothing folded in the page;
 * after that first paint the rest of its log is read (run-log.ts, in slices, its progress in the
 * store's logLoad) for the inspector's raw events; a run still going
 * (or an answer that failed) is read from its event stream. A fresh EventSource starts at seq 0, so
 * a reload shows everything; on a dropped connection the browser reconnects with Last-Event-ID
 * and the reducer skips anything it already folded. Streamed events are folded by a sliced fold
 * (the first at once, later ones in batches, a long replay in slices that leave the page its
 * frames, drawn once). The stream closes itself after `terminate` so the browser does not
 * reconnect to a finished run.
 */
export function useRunEvents(runId: string | undefined): void {
  const store = useRunStoreApi();
  useEffect(() => {
    if (!runId) return;
    const { setConnection } = store.getState();
    // A finished run the page came with, folded by the server and drawn in its HTML
    // (RunStoreProvider's `folded`): nothing to ask for but the rest of its log.
    const sentWithPage = store.getState().logLoad?.whole === false;
    if (!sentWithPage) setConnection('connecting');
    let stopped = false;
    let unsubscribe: (() => void) | undefined;
    // The rest of a finished run's log, read after its first paint.
    const reading = new AbortController();

    const follow = (run: RunStream) => {
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
      unsubscribe = () => {
        stream.close();
        fold.stop();
        fold.drain();
      };
    };

    const readLog = () => {
      if (stopped) return;
      const { logProgress, fillLog, logFailed } = store.getState();
      import('../api/run-log')
        .then(({ readRunLog }) => readRunLog(runId, { signal: reading.signal, onProgress: logProgress }))
        .then(fillLog, (error: unknown) => {
          if (!stopped) logFailed(error instanceof Error ? error.message : String(error));
        });
    };

    const preopened = sentWithPage ? undefined : takeRunStream(runId);
    if (sentWithPage) {
      // The rest of the log once the page is painted: the frame after the next one starts.
      requestAnimationFrame(() => setTimeout(readLog, 0));
    } else if (preopened) {
      // The fold (event check and reducer) is not in the page's first load: fetched now, while the stream connects.
      void loadFold();
      follow(preopened);
    } else {
      const stream = () => {
        if (stopped) return;
        void loadFold();
        follow(openRunStream(runId));
      };
      api.finishedView(runId).then((answer) => {
        if (stopped) return;
        if (!answer.finished) return stream();
        store.getState().showFolded(answer.view, answer.named);
        setConnection('closed');
        // The rest of the log once the run is painted: the frame after the next one starts.
        requestAnimationFrame(() => setTimeout(readLog, 0));
      }, stream);
    }

    return () => {
      stopped = true;
      reading.abort();
      unsubscribe?.();
    };
  }, [runId, store]);
}
