import type { RunEvent } from '@/lib/protocol';
import { eventsUrl } from './client';
import { markRun, RUN_MARKS } from '../run-view/run-marks';

/**
 * A run's event stream, opened the moment the run is created rather than after React has
 * rendered the new run view and run its effects (that wait was most of the time between
 * clicking Run and seeing the first event). Messages that arrive before a view takes the
 * stream are kept and handed over in order.
 */
export interface RunStream {
  source: EventSource;
  /** Sets where messages go from now on; messages kept so far are delivered first. */
  attach(handlers: { onMessage: (data: string) => void; onOpen: () => void; onError: () => void }): void;
}

const opened = new Map<string, RunStream>();

/** Opens a run's stream; `first` are events already in hand (the POST's), streamed on after them. */
export function openRunStream(runId: string, first: readonly RunEvent[] = []): RunStream {
  const last = first.at(-1);
  const source = new EventSource(last ? `${eventsUrl(runId)}?after=${last.seq}` : eventsUrl(runId));
  let kept: string[] = first.map((event) => JSON.stringify(event));
  let isOpen = false;
  let onMessage: ((data: string) => void) | undefined;
  let onOpen: (() => void) | undefined;
  // With events in hand the first one was received with the POST (marked there).
  let firstMessage = first.length === 0;
  source.onopen = () => {
    markRun(RUN_MARKS.streamOpen);
    isOpen = true;
    onOpen?.();
  };
  source.onmessage = (message: MessageEvent<string>) => {
    if (firstMessage) {
      firstMessage = false;
      markRun(RUN_MARKS.firstEvent);
    }
    if (onMessage) onMessage(message.data);
    else kept.push(message.data);
  };
  const stream: RunStream = {
    source,
    attach(handlers) {
      onMessage = handlers.onMessage;
      onOpen = handlers.onOpen;
      source.onerror = handlers.onError;
      if (isOpen) handlers.onOpen();
      const backlog = kept;
      kept = [];
      for (const data of backlog) handlers.onMessage(data);
    },
  };
  return stream;
}

/** A stream opened ahead that no view took within this long is closed (the page moved on). */
const UNCLAIMED_MS = 10_000;

/** Opens a new run's stream now, for the view that will show it (takeRunStream), after the events in hand. */
export function preopenRunStream(runId: string, first: readonly RunEvent[] = []): void {
  if (opened.has(runId)) return;
  if (first.length > 0) markRun(RUN_MARKS.firstEvent);
  const stream = openRunStream(runId, first);
  opened.set(runId, stream);
  setTimeout(() => {
    if (opened.get(runId) !== stream) return;
    opened.delete(runId);
    stream.source.close();
  }, UNCLAIMED_MS);
}

/** The stream opened for this run ahead of its view, if any (each is taken once). */
export function takeRunStream(runId: string): RunStream | undefined {
  const stream = opened.get(runId);
  opened.delete(runId);
  return stream;
}
