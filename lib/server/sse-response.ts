import 'server-only';
import type { RunEvent } from '@/lib/protocol';
import type { RunRegistry } from './run-registry';

export const HEARTBEAT_MS = 15_000;

export const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: nothing between us and the browser may compress or buffer the stream.
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * One SSE frame per event. `id` is the seq, so EventSource (or our own reader) resumes with
 * Last-Event-ID. No `event:` name: frames arrive as plain messages (EventSource.onmessage).
 */
export function encodeSseEvent(event: RunEvent): string {
  return `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
}

export interface SseResponseOptions {
  registry: RunRegistry;
  runId: string;
  /** Send events with seq greater than this. */
  afterSeq?: number;
  /** The request's signal: when the client goes away, the subscription ends. */
  signal?: AbortSignal;
  heartbeatMs?: number;
}

/**
 * Streams a run's events as SSE: the replay from `afterSeq`, then live events, then closes
 * after the terminate event. Subscribes before the Response exists, so an unknown run
 * throws (a 404) instead of opening an empty stream.
 */
export function createSseResponse({ registry, runId, afterSeq = -1, signal, heartbeatMs = HEARTBEAT_MS }: SseResponseOptions): Response {
  const encoder = new TextEncoder();
  // Frames produced before the stream's start() runs wait here.
  const early: string[] = [];
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: () => void = () => {};

  const send = (frame: string): void => {
    if (closed) return;
    if (!controller) {
      early.push(frame);
      return;
    }
    try {
      controller.enqueue(encoder.encode(frame));
    } catch {
      close(); // the client went away between two events
    }
  };
  const close = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    signal?.removeEventListener('abort', close);
    try {
      controller?.close();
    } catch {
      // already closed or errored by the client going away
    }
  };
  let ended = false;

  unsubscribe = registry.subscribe({
    runId,
    afterSeq,
    listener: {
      onEvent: (event) => send(encodeSseEvent(event)),
      onEnd: () => {
        ended = true;
        if (controller) close();
      },
    },
  });
  if (signal?.aborted) close();
  else signal?.addEventListener('abort', close, { once: true });

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(': connected\n\n'));
      for (const frame of early.splice(0)) c.enqueue(encoder.encode(frame));
      if (ended || closed) {
        closed = false;
        close();
        return;
      }
      heartbeat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs);
      heartbeat.unref?.();
    },
    cancel() {
      close();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
