'use client';

import { useEffect, useRef } from 'react';

/**
 * The browser's one way to read a server-sent event stream (a run's events, a followed side of a
 * comparison, a sweep's progress): one EventSource, each message's data read as JSON in one place
 * (readMessage), handed on as a value. What a value means is its reader's to decide: the run view's
 * reducer checks every event against the union, the sweep's progress against its frame's schema.
 * A dropped stream reconnects on its own (EventSource sends Last-Event-ID); `close` ends it for good.
 */
export interface EventStreamHandlers {
  /** One message's data as JSON; undefined when it was not JSON. */
  onMessage: (value: unknown, stream: EventStream) => void;
  onOpen?: () => void;
  /** The connection dropped: `closed` when the browser gave up (it will not reconnect). */
  onError?: (closed: boolean) => void;
}

export interface EventStream {
  readonly url: string;
  close(): void;
}

/** A message's data as JSON; undefined when it is not JSON (a reader shows that, never guesses). */
export function readMessage(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** Opens a stream outside React (a run's stream is opened when the run is created, before its view). */
export function openEventStream(url: string, handlers: EventStreamHandlers): EventStream {
  const source = new EventSource(url);
  const stream: EventStream = { url, close: () => source.close() };
  source.onopen = () => handlers.onOpen?.();
  source.onmessage = (message: MessageEvent<string>) => handlers.onMessage(readMessage(message.data), stream);
  source.onerror = () => handlers.onError?.(source.readyState === EventSource.CLOSED);
  return stream;
}

/**
 * A stream a component reads while it is mounted: opened when `url` is set, closed when it
 * changes or the component goes away. The handlers are read at each message, so they may close
 * over the latest render without reopening the stream.
 */
export function useEventStream(url: string | undefined, handlers: EventStreamHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!url) return;
    const stream = openEventStream(url, {
      onMessage: (value, s) => latest.current.onMessage(value, s),
      onOpen: () => latest.current.onOpen?.(),
      onError: (closed) => latest.current.onError?.(closed),
    });
    return () => stream.close();
  }, [url]);
}
