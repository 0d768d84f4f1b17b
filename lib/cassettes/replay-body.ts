import { abortReason, type Clock } from '@/lib/clock';
import type { CassetteResponse } from '@/lib/protocol';

/**
 * A recorded response body played on the run clock: each chunk after its recorded gap, as its
 * own read (the recorded boundaries are kept, so a record split across two reads arrives
 * split again), then the recorded ending — closed, failed as the connection failed, or (cut)
 * held open with nothing more until the client gives up. The request's signal errors it at
 * once, as a real connection's would.
 */
export function replayBody(options: { response: CassetteResponse; clock: Clock; signal?: AbortSignal | null }): ReadableStream<Uint8Array> {
  const { response, clock } = options;
  const signal = options.signal ?? undefined;
  const encoder = new TextEncoder();
  let next = 0;
  let finished = false;
  let cancelWait: (() => void) | undefined;
  let wake: (() => void) | undefined;
  let onAbort: (() => void) | undefined;

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      wake = () => {
        wake = undefined;
        cancelWait = undefined;
        resolve();
      };
      cancelWait = clock.setTimer(ms, wake);
    });
  const finish = (): void => {
    finished = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (!signal) return;
        onAbort = () => {
          cancelWait?.();
          if (!finished) controller.error(abortReason(signal));
          finished = true;
          wake?.();
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        if (finished) return;
        const chunk = response.chunks[next];
        if (chunk) {
          next += 1;
          await wait(chunk.after_ms);
          if (finished) return;
          controller.enqueue(chunk.text !== undefined ? encoder.encode(chunk.text) : new Uint8Array(Buffer.from(chunk.base64 ?? '', 'base64')));
          return;
        }
        if (response.end === 'complete') {
          finish();
          controller.close();
        } else if (response.end === 'error') {
          finish();
          controller.error(new TypeError('terminated', { cause: new Error(response.error ?? 'the recorded connection failed') }));
        }
        // cut: nothing more was sent; the read waits until the signal (the client's watchdog) ends it.
        else if (!signal) {
          finish();
          controller.close();
        } else {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      },
      cancel() {
        cancelWait?.();
        finish();
        wake?.();
      },
    },
    { highWaterMark: 0 },
  );
}
