'use client';

import { useEffect } from 'react';
import { eventsUrl } from './api-client';
import { useRunStoreApi } from './run-store-provider';

/** Events arriving within this many ms are folded in one store update. */
const BATCH_MS = 25;

/**
 * Subscribes the page's run store to a run's event stream. A fresh EventSource starts at
 * seq 0, so a reload shows everything; on a dropped connection the browser reconnects
 * with Last-Event-ID and the reducer skips anything it already folded. Closes itself
 * after `terminate` so the browser does not reconnect to a finished run.
 */
export function useRunEvents(runId: string | undefined): void {
  const store = useRunStoreApi();
  useEffect(() => {
    if (!runId) return;
    const { setConnection } = store.getState();
    setConnection('connecting');
    const source = new EventSource(eventsUrl(runId));
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

    source.onopen = () => setConnection('open');
    source.onmessage = (message: MessageEvent<string>) => {
      let value: unknown;
      try {
        value = JSON.parse(message.data);
      } catch {
        value = undefined;
      }
      queue.push(value);
      if (timer === undefined) timer = setTimeout(flush, BATCH_MS);
    };
    source.onerror = () => {
      if (store.getState().view.terminate) return;
      setConnection(source.readyState === EventSource.CLOSED ? 'error' : 'connecting');
    };

    return () => {
      source.close();
      if (timer !== undefined) clearTimeout(timer);
      if (queue.length > 0) store.getState().applyEvents(queue);
    };
  }, [runId, store]);
}
