import 'server-only';
import { eventJson, type RunEvent } from '@/lib/protocol';
import type { RunRegistry } from './run-registry';
import { createSseStream, HEARTBEAT_MS } from './sse-stream';

export { HEARTBEAT_MS, SSE_HEADERS } from './sse-stream';

/**
 * One SSE frame per event. `id` is the seq, so EventSource (or our own reader) resumes with
 * Last-Event-ID. No `event:` name: frames arrive as plain messages (EventSource.onmessage).
 */
export function encodeSseEvent(event: RunEvent): string {
  return `id: ${event.seq}\ndata: ${eventJson(event)}\n\n`;
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
 * rejects (a 404) instead of opening an empty stream.
 */
export function createSseResponse({
  registry,
  runId,
  afterSeq = -1,
  signal,
  heartbeatMs = HEARTBEAT_MS,
}: SseResponseOptions): Promise<Response> {
  return createSseStream({
    signal,
    heartbeatMs,
    subscribe: (sink) =>
      registry.subscribe({
        runId,
        afterSeq,
        listener: { onEvent: (event) => sink.send(encodeSseEvent(event)), onEnd: () => sink.end() },
      }),
  });
}
