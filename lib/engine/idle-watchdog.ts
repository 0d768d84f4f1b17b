import type { Clock } from '@/lib/clock';

/** The reason a request is aborted with when its stream goes quiet. */
export class StreamIdleTimeout extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly windowMs: number) {
    super(`stream idle timeout: no stream event for ${(windowMs / 1000).toFixed(1)} s, the connection may have stalled silently`);
  }
}

/** A ready-made abort reason: stopping a watchdog is routine and needs no stack trace. */
const STOPPED = Symbol('watchdog stopped');

/**
 * A deadline on every wait for the next stream event: a stream that keeps producing never
 * trips it, only a mute one does. One clock timer per window rather than one per event:
 * `touch()` only records the time, and the timer re-arms for the remainder when it wakes.
 */
export class IdleWatchdog {
  private last: number;
  private readonly stopper = new AbortController();
  private fired = false;

  constructor(
    private readonly options: { clock: Clock; windowMs: number; onFire: (error: StreamIdleTimeout) => void },
  ) {
    this.last = options.clock.now();
    void this.watch();
  }

  /** A stream event arrived: the countdown starts again. */
  touch(): void {
    this.last = this.options.clock.now();
  }

  stop(): void {
    this.stopper.abort(STOPPED);
  }

  get hasFired(): boolean {
    return this.fired;
  }

  private async watch(): Promise<void> {
    const { clock, windowMs } = this.options;
    for (;;) {
      const remaining = this.last + windowMs - clock.now();
      if (remaining <= 0) break;
      try {
        await clock.sleep(remaining, this.stopper.signal);
      } catch {
        return;
      }
    }
    if (this.stopper.signal.aborted) return;
    this.fired = true;
    this.options.onFire(new StreamIdleTimeout(windowMs));
  }
}
