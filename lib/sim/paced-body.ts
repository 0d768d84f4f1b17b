import type { Clock } from '@/lib/clock';
import { abortReason } from '@/lib/clock';

/** One piece of a response body and the run time to wait before it is sent. */
export interface BodyFrame {
  delayMs: number;
  text: string;
}

/**
 * A response body that plays frames through the clock. It honours the request's signal: an
 * abort errors the stream and rejects the pending sleep, so a stalled read can always stop.
 */
export function pacedBody(options: { frames: Iterable<BodyFrame>; clock: Clock; signal?: AbortSignal | null }): ReadableStream<Uint8Array> {
  const { clock } = options;
  const signal = options.signal ?? undefined;
  const encoder = new TextEncoder();
  const iterator = options.frames[Symbol.iterator]();
  let ahead: IteratorResult<BodyFrame> | undefined;
  const peek = (): IteratorResult<BodyFrame> => (ahead ??= iterator.next());
  const take = (): IteratorResult<BodyFrame> => {
    const step = peek();
    ahead = undefined;
    return step;
  };
  let finished = false;
  let onAbort: (() => void) | undefined;

  const finish = (): void => {
    finished = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (!signal) return;
        onAbort = () => {
          if (finished) return;
          finish();
          controller.error(abortReason(signal));
        };
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        if (finished) return;
        const step = take();
        if (step.done) {
          finish();
          controller.close();
          return;
        }
        try {
          if (step.value.delayMs > 0) await clock.sleep(step.value.delayMs, signal);
        } catch (error) {
          if (!finished) {
            finish();
            controller.error(error);
          }
          return;
        }
        if (finished) return;
        // Frames due at this same instant go out in one chunk, as a socket would carry them:
        // the records are the same bytes and the reader sees them at the same time.
        let text = step.value.text;
        for (let due = peek(); !due.done && due.value.delayMs <= 0; due = peek()) text += take().value!.text;
        controller.enqueue(encoder.encode(text));
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: 0 },
  );
}
