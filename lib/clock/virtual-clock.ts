import { abortReason, type Clock } from './clock';

interface Timer {
  deadline: number;
  order: number;
  resolve: () => void;
}

/**
 * Macrotask hops to wait before deciding nothing else can run and time may jump. One is
 * enough: Node drains every process.nextTick and promise continuation (however long the
 * chain) before it runs the next setImmediate callback, and real work that ends in a later
 * macrotask (a check in a child process, the SDK's own retry wait) holds the clock (`hold`).
 * Nothing a run does on the virtual clock chains setImmediate itself. It was three: every
 * wake-up cost three event-loop turns (~2.3 µs of CPU each, ~370 a sweep run) for work that
 * never came; the 800-job sweep log digest is byte-identical with one.
 */
const QUIET_HOPS = 1;
/**
 * Quiet hops, with no timer left at all, before the clock decides nothing can ever wake:
 * far more than QUIET_HOPS, because calling a run stuck is final.
 */
const STUCK_HOPS = 50;

/**
 * Discrete-event time: when every runnable piece of work has run (the microtask queue and a
 * few macrotask hops are empty of progress), jump to the earliest deadline and wake it.
 * Ten minutes of backoff and stalls complete in milliseconds, with the same events and the
 * same timestamps, run after run. Timers with equal deadlines wake in the order they were set.
 * Real work the run waits on (a check in a child process) holds time still until it ends.
 */
export class VirtualClock implements Clock {
  readonly kind: 'virtual' | 'paced' = 'virtual';
  readonly timeScale: number = 1;
  private current = 0;
  private order = 0;
  private timers: Timer[] = [];
  private advancing = false;
  /** Real work in flight (see `hold`): while above 0, time stands still. */
  private holds = 0;
  private checkingStuck = false;
  private onStuck: (() => void) | undefined;

  /** `startAt`: run time at creation (a forked run goes on from its parent's last copied event). */
  constructor(startAt = 0) {
    this.current = startAt;
  }

  now(): number {
    return this.current;
  }

  /** Timers waiting to fire (for tests and deadlock diagnostics). */
  get pending(): number {
    return this.timers.length;
  }

  /** Pieces of real work holding the clock still. */
  get held(): number {
    return this.holds;
  }

  hold<T>(work: Promise<T>): Promise<T> {
    this.holds++;
    const release = (): void => {
      this.holds--;
      if (this.holds === 0) this.heldWorkEnded();
      if (this.holds === 0 && this.timers.length > 0) this.scheduleAdvance();
      else if (this.holds === 0) this.scheduleStuckCheck();
    };
    work.then(release, release);
    return work;
  }

  /** Held time already stands still: a frozen virtual clock is a held one. */
  freeze<T>(work: Promise<T>): Promise<T> {
    return this.hold(work);
  }

  /**
   * Called when nothing can ever wake: no timer is set and nothing has run for STUCK_HOPS
   * macrotask hops. Real time would wait forever here (a stall that ignores its abort, a
   * promise nobody resolves); the run uses this to end with a terminate event instead of
   * hanging, or of the process exiting with the run unfinished. Pass undefined to stop.
   */
  whenStuck(callback: (() => void) | undefined): void {
    this.onStuck = callback;
    if (callback && this.timers.length === 0) this.scheduleStuckCheck();
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer: Timer = { deadline: this.current + Math.max(0, ms), order: this.order++, resolve: callback };
    this.insert(timer);
    this.scheduleAdvance();
    return () => this.remove(timer);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const timer: Timer = {
        deadline: this.current + Math.max(0, ms),
        order: this.order++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.remove(timer);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.insert(timer);
      this.scheduleAdvance();
    });
  }

  private remove(timer: Timer): void {
    this.timers = this.timers.filter((t) => t !== timer);
    if (this.timers.length === 0) this.scheduleStuckCheck();
  }

  private insert(timer: Timer): void {
    let i = this.timers.length;
    while (i > 0) {
      const prev = this.timers[i - 1]!;
      if (prev.deadline < timer.deadline || (prev.deadline === timer.deadline && prev.order < timer.order))
        break;
      i--;
    }
    this.timers.splice(i, 0, timer);
  }

  private scheduleAdvance(): void {
    if (this.advancing) return;
    this.advancing = true;
    const seenOrder = this.order;
    let hops = 0;
    const hop = (): void => {
      // Work that set a new timer during the hops is still running: wait for it to settle.
      if (this.order !== seenOrder && hops < QUIET_HOPS) {
        this.advancing = false;
        this.scheduleAdvance();
        return;
      }
      if (++hops < QUIET_HOPS) {
        setImmediate(hop);
        return;
      }
      this.advancing = false;
      // Real work is in flight: its end (not a deadline) is what happens next.
      if (this.holds > 0) return;
      const earliest = this.timers[0];
      if (!earliest) return this.scheduleStuckCheck();
      // Pacing (PacedClock): not yet in wall time; the jump is decided again when it is.
      if (this.waitBeforeJump(earliest.deadline - this.current, () => this.scheduleAdvance())) return;
      const next = this.timers.shift()!;
      this.current = Math.max(this.current, next.deadline);
      this.jumped();
      next.resolve();
      if (this.timers.length > 0) this.scheduleAdvance();
      else this.scheduleStuckCheck();
    };
    setImmediate(hop);
  }

  /**
   * Before time jumps `runMs` ahead: true to wait instead, having arranged for `retry` to be
   * called once the jump may be decided again. The virtual clock never waits.
   */
  protected waitBeforeJump(_runMs: number, _retry: () => void): boolean {
    return false;
  }

  /** Time has just jumped to a new deadline (before that timer wakes). */
  protected jumped(): void {}

  /** The last piece of held real work has ended. */
  protected heldWorkEnded(): void {}

  /**
   * Watches an empty timer list: a new timer or real work in flight means progress;
   * STUCK_HOPS without either means never.
   */
  private scheduleStuckCheck(): void {
    if (this.checkingStuck || !this.onStuck) return;
    this.checkingStuck = true;
    const seenOrder = this.order;
    let hops = 0;
    const hop = (): void => {
      if (this.order !== seenOrder || this.timers.length > 0 || this.holds > 0 || !this.onStuck) {
        this.checkingStuck = false;
        return;
      }
      if (++hops < STUCK_HOPS) {
        setImmediate(hop);
        return;
      }
      this.checkingStuck = false;
      this.onStuck();
    };
    setImmediate(hop);
  }
}
