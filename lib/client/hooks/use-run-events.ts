'use client';

import { useEffect } from 'react';
import { openRunStream, takeRunStream } from '../api/run-stream';
import { useRunStoreApi } from '../run-view/run-store-provider';

/** Events arriving within this many ms are folded in one store update (after the first). */
const BATCH_MS = 25;

/**
 * Subscribes the page's run store to a run's event stream: the one opened when the run was
 * created (run-stream.ts), else a fresh one. A fresh EventSource starts at seq 0, so a reload
 * shows everything; on a dropped connection the browser reconnects with Last-Event-ID and the
 * reducer skips anything it already folded. The first event is folded at once, so it is on
 * screen as soon as it arrives; later ones in batches. Closes itself after `terminate` so the
 * browser does not reconnect to a finished run.
 */
export function useRunEvents(runId: string | undefined): void {
  const store = useRunStoreApi();
  useEffect(() => {
    if (!runId) return;
    const { setConnection } = store.getState();
    setConnection('connecting');
    const stream = takeRunStream(runId) ?? openRunStream(runId);
    const { source } = stream;
    let queue: unknown[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;

    const flush = () => {
      timer = undefined;
      const batch = queue;
      queue = [];
      store.getState().applyEvents(batch);
      if (store.getState().view.terminate) {
        source.close();
        setConnection('closed');
      }
    };

    stream.attach({
      onOpen: () => setConnection('open'),
      onMessage: (data) => {
        let value: unknown;
        try {
          value = JSON.parse(data);
        } catch {
          value = undefined;
        }
        queue.push(value);
        if (store.getState().view.eventCount === 0) flush();
        else if (timer === undefined) timer = setTimeout(flush, BATCH_MS);
      },
      onError: () => {
        if (store.getState().view.terminate) return;
        setConnection(source.readyState === EventSource.CLOSED ? 'error' : 'connecting');
      },
    });

    return () => {
      source.close();
      if (timer !== undefined) clearTimeout(timer);
      if (queue.length > 0) store.getState().applyEvents(queue);
    };
  }, [runId, store]);
}
