import { abortReason, type Clock } from './clock';

/**
 * Real time with a time scale: at 0.05 a 120 s watchdog fires after 6 s of wall time, while
 * every timestamp and label still reads in run time (120 s).
 */
export class RealClock implements Clock {
  readonly kind = 'real' as const;
  private readonly startedAt = performance.now();

  constructor(readonly timeScale = 1) {
    if (!(timeScale > 0)) throw new RangeError(`time scale must be > 0, got ${timeScale}`);
  }

  now(): number {
    return (performance.now() - this.startedAt) / this.timeScale;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer = setTimeout(callback, Math.max(0, ms) * this.timeScale);
    return () => clearTimeout(timer);
  }

  hold<T>(work: Promise<T>): Promise<T> {
    return work;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms) * this.timeScale,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
