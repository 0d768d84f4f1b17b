import type { RunEvent } from '@/lib/protocol';
import { eventsUrl } from './client';
import { openEventStream, type EventStream } from './event-stream';
import { markRun, RUN_MARKS } from '../run-view/run-marks';

/**
 * A run's event stream, opened the moment the run is created rather than after React has
 * rendered the new run view and run its effects (that wait was most of the time between
 * clicking Run and seeing the first event). Messages that arrive before a view takes the
 * stream are kept and handed over in order. Messages are read by the one event-stream reader
 * (event-stream.ts): a view gets each as a value, checked against the event union by its store.
 */
export interface RunStream {
  stream: EventStream;
  /** Sets where messages go from now on; messages kept so far are delivered first. */
  attach(handlers: {
    onMessage: (value: unknown) => void;
    onOpen: () => void;
    onError: (closed: boolean) => void;
  }): void;
}

const opened = new Map<string, RunStream>();

/** Opens a run's stream; `first` are events already in hand (the POST's), handed on before the stream's own. */
export function openRunStream(runId: string, first: readonly RunEvent[] = []): RunStream {
  const last = first.at(-1);
  let kept: unknown[] = [...first];
  let isOpen = false;
  let onMessage: ((value: unknown) => void) | undefined;
  let onOpen: (() => void) | undefined;
  let onError: ((closed: boolean) => void) | undefined;
  // With events in hand the first one was received with the POST (marked there).
  let firstMessage = first.length === 0;
  const stream = openEventStream(last ? `${eventsUrl(runId)}?after=${last.seq}` : eventsUrl(runId), {
    onOpen: () => {
      markRun(RUN_MARKS.streamOpen);
      isOpen = true;
      onOpen?.();
    },
    onMessage: (value) => {
      if (firstMessage) {
        firstMessage = false;
        markRun(RUN_MARKS.firstEvent);
      }
      if (onMessage) onMessage(value);
      else kept.push(value);
    },
    onError: (closed) => onError?.(closed),
  });
  return {
    stream,
    attach(handlers) {
      onMessage = handlers.onMessage;
      onOpen = handlers.onOpen;
      onError = handlers.onError;
      if (isOpen) handlers.onOpen();
      const backlog = kept;
      kept = [];
      for (const value of backlog) handlers.onMessage(value);
    },
  };
}

/** A stream opened ahead that no view took within this long is closed (the page moved on). */
const UNCLAIMED_MS = 10_000;

/** Opens a new run's stream now, for the view that will show it (takeRunStream), after the events in hand. */
export function preopenRunStream(runId: string, first: readonly RunEvent[] = []): void {
  if (opened.has(runId)) return;
  if (first.length > 0) markRun(RUN_MARKS.firstEvent);
  const run = openRunStream(runId, first);
  opened.set(runId, run);
  setTimeout(() => {
    if (opened.get(runId) !== run) return;
    opened.delete(runId);
    run.stream.close();
  }, UNCLAIMED_MS);
}

/** The stream opened for this run ahead of its view, if any (each is taken once). */
export function takeRunStream(runId: string): RunStream | undefined {
  const run = opened.get(runId);
  opened.delete(runId);
  return run;
}
