import type { Clock } from '@/lib/clock';
import { abortReason } from '@/lib/clock';

/** One piece of a response body and the run time to wait before it is sent. */
export interface BodyFrame {
  delayMs: number;
  text: string;
}

/**
 * A response body that plays frames through the clock. It honours the request's signal: an
 * abort errors the stream and drops the pending wait, so a stalled read can always stop.
 * Frames due at the same instant go out in one chunk, as a socket would carry them: the
 * records are the same bytes and the reader sees them at the same run time.
 *
 * One abort listener serves the whole body and each wait is a bare clock timer: a promise,
 * a listener and its removal per chunk cost more than the chunk itself. The listener stays
 * while a wait is pending, even after a cancel, so an abort still drops that wait's timer.
 */
export function pacedBody(options: {
  frames: Iterable<BodyFrame>;
  clock: Clock;
  signal?: AbortSignal | null;
}): ReadableStream<Uint8Array> {
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
  /** No more output: closed, errored or cancelled. */
  let finished = false;
  /** The wait in progress: its timer's cancel and the pull it holds. */
  let waiting: { cancel: () => void; wake: () => void } | undefined;
  let listening = false;
  let onAbort: (() => void) | undefined;

  const detachWhenIdle = (): void => {
    if (listening && finished && !waiting) {
      listening = false;
      signal?.removeEventListener('abort', onAbort!);
    }
  };
  const finish = (): void => {
    finished = true;
    detachWhenIdle();
  };
  const wait = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const wake = (): void => {
        waiting = undefined;
        resolve();
        detachWhenIdle();
      };
      waiting = { cancel: clock.setTimer(ms, wake), wake };
    });

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (!signal) return;
        onAbort = () => {
          listening = false;
          const pending = waiting;
          pending?.cancel();
          if (!finished) {
            finished = true;
            controller.error(abortReason(signal));
          }
          if (pending) pending.wake();
          else detachWhenIdle();
        };
        if (signal.aborted) return onAbort();
        listening = true;
        signal.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        if (finished) return;
        const step = take();
        if (step.done) {
          finish();
          controller.close();
          return;
        }
        if (step.value.delayMs > 0) await wait(step.value.delayMs);
        if (finished) return;
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
