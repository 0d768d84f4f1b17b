import { abortReason, type Clock } from './clock';

interface Timer {
  /** Run time at which it fires. */
  due: number;
  callback: () => void;
  handle: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Real time with a time scale: at 0.05 a 120 s watchdog fires after 6 s of wall time, while
 * every timestamp and label still reads in run time (120 s).
 *
 * The scale is for what the run simulates (backoff, stalls, a vendor's pace). Real work the
 * run holds the clock for — a check in a child process, the SDK's own retry waits — takes
 * the time it really takes, so while a hold is in force run time passes at 1×: a 300 ms check
 * reads 300 ms at any scale, not 6 s at 0.05. Timers are kept in run time and re-armed when
 * the rate changes, so a deadline stays a deadline in run time.
 */
export class RealClock implements Clock {
  readonly kind = 'real' as const;
  /** Run time and wall time at the last change of rate. */
  private runAtMark = 0;
  private wallAtMark = performance.now();
  private holds = 0;
  /** Pieces of work the clock is frozen for (see `freeze`): while above 0, run time stands still. */
  private frozen = 0;
  private readonly timers = new Set<Timer>();

  /** `startAt`: run time at creation (a forked run goes on from its parent's last copied event). */
  constructor(
    readonly timeScale = 1,
    startAt = 0,
  ) {
    if (!(timeScale > 0)) throw new RangeError(`time scale must be > 0, got ${timeScale}`);
    this.runAtMark = startAt;
  }

  now(): number {
    if (this.frozen > 0) return this.runAtMark;
    return this.runAtMark + (performance.now() - this.wallAtMark) / this.wallPerRunMs();
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer: Timer = { due: this.now() + Math.max(0, ms), callback, handle: undefined };
    this.timers.add(timer);
    this.arm(timer);
    return () => {
      clearTimeout(timer.handle);
      this.timers.delete(timer);
    };
  }

  hold<T>(work: Promise<T>): Promise<T> {
    this.changeHolds(+1);
    return work.finally(() => this.changeHolds(-1));
  }

  freeze<T>(work: Promise<T>): Promise<T> {
    this.runAtMark = this.now();
    this.wallAtMark = performance.now();
    this.frozen += 1;
    // Nothing fires while frozen: each timer keeps its due run time and is armed again at the end.
    if (this.frozen === 1) for (const timer of this.timers) clearTimeout(timer.handle);
    return work.finally(() => {
      this.frozen -= 1;
      if (this.frozen > 0) return;
      this.wallAtMark = performance.now();
      for (const timer of this.timers) this.arm(timer);
    });
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = (): void => {
        cancel();
        reject(abortReason(signal!));
      };
      const cancel = this.setTimer(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Wall milliseconds per run millisecond right now. */
  private wallPerRunMs(): number {
    return this.holds > 0 ? 1 : this.timeScale;
  }

  private changeHolds(delta: number): void {
    const before = this.wallPerRunMs();
    this.runAtMark = this.now();
    this.wallAtMark = performance.now();
    this.holds += delta;
    if (this.wallPerRunMs() !== before) for (const timer of this.timers) this.arm(timer);
  }

  private arm(timer: Timer): void {
    clearTimeout(timer.handle);
    // Frozen: armed again when the freeze ends.
    if (this.frozen > 0) return;
    // Whole milliseconds: Node fires a timer on a whole-ms tick anyway, and keeps one list per
    // distinct duration, so a fractional wait (always slightly different) costs a list each.
    // Rounded up, a timer never fires earlier than the fractional wait would have.
    const wait = Math.ceil(Math.max(0, timer.due - this.now()) * this.wallPerRunMs());
    timer.handle = setTimeout(() => {
      // A wall timer may fire a millisecond early, which at a small scale is many ms of run
      // time: a deadline never passes early, so the rest is waited out.
      if (this.now() < timer.due) return this.arm(timer);
      this.timers.delete(timer);
      timer.callback();
    }, wait);
  }
}
