import { abortReason } from '@/lib/clock';

/**
 * A byte stream driven by an async generator of text, one step per read (high-water mark
 * 0): nothing runs ahead of the reader, so a stall or a keepalive loop never spins the
 * clock while nobody is reading. `stop` aborts on the request's signal or on cancel, and
 * every wait inside the generator must honour it, so an aborted request always ends.
 */
export function lazyStream(options: {
  steps: (stop: AbortSignal) => AsyncGenerator<string, void, undefined>;
  signal?: AbortSignal | null | undefined;
  onEnd?: (reason?: unknown) => void;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const stop = new AbortController();
  const { signal } = options;
  const onAbort = (): void => stop.abort(abortReason(signal!));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  let ended = false;
  const end = (reason?: unknown): void => {
    if (ended) return;
    ended = true;
    signal?.removeEventListener('abort', onAbort);
    options.onEnd?.(reason);
  };
  const steps = options.steps(stop.signal);

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await steps.next();
          if (done) {
            controller.close();
            end();
          } else {
            controller.enqueue(encoder.encode(value));
          }
        } catch (error) {
          controller.error(error);
          end(error);
        }
      },
      cancel(reason) {
        stop.abort(reason);
        end(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Resolves never; rejects with the signal's reason when it aborts. */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    signal.addEventListener('abort', () => reject(abortReason(signal)), { once: true });
  });
}

/** `promise`, or the signal's reason if it aborts first (for sources that may ignore it). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  // The loser may still settle later; never let that surface as an unhandled rejection.
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(abortReason(signal));
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
