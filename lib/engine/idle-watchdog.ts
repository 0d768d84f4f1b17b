import type { Clock } from '@/lib/clock';
import { formatMs } from '@/lib/protocol/format-duration';
import type { EngineProbe } from './engine-deps';

/** The reason a request is aborted with when its stream goes quiet. */
export class StreamIdleTimeout extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly windowMs: number) {
    super(
      `stream idle timeout: no stream event for ${formatMs(windowMs)}, the connection may have stalled silently`,
    );
  }
}

/**
 * A deadline on every wait for the next stream event: a stream that keeps producing never
 * trips it, only a mute one does. One clock timer per window rather than one per event:
 * `touch()` only records the time, and the timer re-arms for the remainder when it wakes.
 */
export class IdleWatchdog {
  private last: number;
  private cancel: () => void;
  private stopped = false;
  private fired = false;

  constructor(
    private readonly options: {
      clock: Clock;
      windowMs: number;
      onFire: (error: StreamIdleTimeout) => void;
      /** Told how late each firing was, in wall ms, on the real clock (a benchmark's; see EngineProbe). */
      probe?: EngineProbe | undefined;
    },
  ) {
    this.last = options.clock.now();
    this.cancel = options.clock.setTimer(options.windowMs, this.check);
  }

  /** A stream event arrived (at `now`, run time): the countdown starts again. */
  touch(now: number = this.options.clock.now()): void {
    this.last = now;
  }

  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  get hasFired(): boolean {
    return this.fired;
  }

  private readonly check = (): void => {
    if (this.stopped) return;
    const { clock, windowMs } = this.options;
    const remaining = this.last + windowMs - clock.now();
    if (remaining > 0) {
      this.cancel = clock.setTimer(remaining, this.check);
      return;
    }
    this.fired = true;
    // How late it fired, in wall ms, for a benchmark's probe only.
    if (clock.kind === 'real') this.options.probe?.watchdogFiredLate(-remaining * clock.timeScale);
    this.options.onFire(new StreamIdleTimeout(windowMs));
  };
}
