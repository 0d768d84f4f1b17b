import 'server-only';

export const HEARTBEAT_MS = 15_000;

export const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: nothing between us and the browser may compress or buffer the stream.
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** Where a producer writes: whole SSE frames, then `end` once. */
export interface SseSink {
  send(frame: string): void;
  end(): void;
}

export interface SseStreamOptions {
  /**
   * Called once and awaited before the Response exists, so a producer that cannot start (an
   * unknown id) rejects and the route answers 404 instead of opening an empty stream. May send
   * at once (a replay); resolves to the unsubscribe function.
   */
  subscribe: (sink: SseSink) => Promise<() => void>;
  /** The request's signal: when the client goes away, the stream closes and unsubscribes. */
  signal?: AbortSignal;
  heartbeatMs?: number;
  /** Runs just before the stream closes, however it closes: a throttled producer's last frame. */
  beforeClose?: () => void;
}

/**
 * The one SSE stream builder for runs and sweeps: a `: connected` comment, the producer's
 * frames, a heartbeat comment while it is quiet, and a close when the producer ends, the
 * client goes away or the consumer cancels. Frames sent in one turn of the event loop (a
 * replay, the events of one engine step, every batch a run thread sent while this thread was
 * busy) are joined and enqueued as one chunk at the end of the turn (setImmediate), so a fast
 * producer costs one encode and one socket write per turn rather than per frame or per
 * batch; nothing waits on a timer, so no frame is held back.
 */
export async function createSseStream({
  subscribe,
  signal,
  heartbeatMs = HEARTBEAT_MS,
  beforeClose,
}: SseStreamOptions): Promise<Response> {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let buffered = '';
  let flushQueued = false;
  let closed = false;
  let ended = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const flush = (): void => {
    flushQueued = false;
    if (!controller || buffered === '') return;
    const chunk = buffered;
    buffered = '';
    try {
      controller.enqueue(encoder.encode(chunk));
    } catch {
      close(); // the client went away between two bursts
    }
  };
  const send = (frame: string): void => {
    if (closed) return;
    buffered += frame;
    if (controller && !flushQueued) {
      flushQueued = true;
      setImmediate(flush);
    }
  };
  const close = (): void => {
    if (closed) return;
    beforeClose?.();
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    signal?.removeEventListener('abort', close);
    if (!controller) return; // start() closes it
    flush();
    try {
      controller.close();
    } catch {
      // already closed or errored by the client going away
    }
  };

  let unsubscribe: () => void = () => {};
  unsubscribe = await subscribe({
    send,
    end: () => {
      ended = true;
      if (controller) close();
    },
  });
  // A client that left while the subscription started is let go now it can be unsubscribed.
  if (signal?.aborted) close();
  else signal?.addEventListener('abort', close, { once: true });

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(': connected\n\n'));
      flush();
      if (closed) {
        // The client left before the stream started: what was sent goes out, then it closes.
        c.close();
        return;
      }
      if (ended) {
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
