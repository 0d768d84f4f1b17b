import 'server-only';
import type { SweepProgress } from '@/lib/sweeps/execute-sweep';
import { createSseStream } from './sse-stream';
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
export function createSweepSseResponse({
  registry,
  sweepId,
  signal,
}: {
  registry: SweepRegistry;
  sweepId: string;
  signal?: AbortSignal;
}): Promise<Response> {
  let pending: SweepProgress | undefined;
  let lastSent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let write: (frame: string) => void = () => {};

  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    lastSent = Date.now();
    write(encodeSweepFrame(pending));
    pending = undefined;
  };

  return createSseStream({
    signal,
    // The last state is always sent, however the stream ends.
    beforeClose: flush,
    subscribe: (sink) => {
      write = (frame) => sink.send(frame);
      return registry.subscribe(sweepId, {
        onProgress(progress) {
          pending = progress;
          const final = progress.summary.status !== 'running' && progress.summary.status !== 'queued';
          const wait = FRAME_MS - (Date.now() - lastSent);
          if (final || wait <= 0) flush();
          else timer ??= setTimeout(flush, wait);
        },
        onEnd: () => sink.end(),
      });
    },
  });
}
