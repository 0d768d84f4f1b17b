import 'server-only';
import type { SweepProgress } from '@/lib/sweeps/execute-sweep';
import { HEARTBEAT_MS, SSE_HEADERS } from './sse-response';
import type { SweepRegistry } from './sweep-registry';

/** At most this many progress frames a second: a progress bar needs no more. */
const FRAME_MS = 200;

/** The frame a browser reads: the sweep summary plus its rate and time left. */
export function encodeSweepFrame(progress: SweepProgress): string {
  return `data: ${JSON.stringify({ ...progress.summary, runs_per_sec: progress.runsPerSec, eta_ms: progress.etaMs })}\n\n`;
}

/**
 * A sweep's progress as SSE: the current state at once, then changes (throttled, the last
 * one always sent), closing when the sweep ends. A reload simply subscribes again.
 */
export function createSweepSseResponse({ registry, sweepId, signal }: { registry: SweepRegistry; sweepId: string; signal?: AbortSignal }): Response {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  let ended = false;
  let pending: SweepProgress | undefined;
  let lastSent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const early: string[] = [];

  const write = (frame: string): void => {
    if (closed) return;
    if (!controller) {
      early.push(frame);
      return;
    }
    try {
      controller.enqueue(encoder.encode(frame));
    } catch {
      close();
    }
  };
  const flush = (): void => {
    timer = undefined;
    if (!pending) return;
    lastSent = Date.now();
    write(encodeSweepFrame(pending));
    pending = undefined;
  };
  const close = (): void => {
    if (closed) return;
    flush();
    closed = true;
    clearTimeout(timer);
    clearInterval(heartbeat);
    unsubscribe();
    signal?.removeEventListener('abort', close);
    try {
      controller?.close();
    } catch {
      // the client already went away
    }
  };

  const unsubscribe = registry.subscribe(sweepId, {
    onProgress(progress) {
      pending = progress;
      const final = progress.summary.status !== 'running';
      const wait = FRAME_MS - (Date.now() - lastSent);
      if (final || wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    onEnd() {
      ended = true;
      if (controller) close();
    },
  });
  if (signal?.aborted) close();
  else signal?.addEventListener('abort', close, { once: true });

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(': connected\n\n'));
      for (const frame of early.splice(0)) c.enqueue(encoder.encode(frame));
      if (ended) {
        close();
        return;
      }
      heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
      heartbeat.unref?.();
    },
    cancel() {
      close();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
