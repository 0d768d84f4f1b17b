/**
 * Every wait in Loop Lab — backoff, Retry-After, the stream watchdog, a simulated stall —
 * goes through a Clock, so the same run can play in real time, in scaled real time, on a
 * virtual clock that jumps straight to the next deadline, or on that virtual clock paced to
 * wall time for a watcher (each jump waits until wall time has caught up at the time scale).
 */
export interface Clock {
  readonly kind: 'real' | 'virtual' | 'paced';
  /** Wall time per unit of run time (1 on the virtual clock; the pace on the paced one). */
  readonly timeScale: number;
  /** Milliseconds of run time since the clock started. */
  now(): number;
  /**
   * Resolves after `ms` of run time; rejects with the signal's reason when aborted first.
   * A non-positive `ms` still yields once, so callers never spin.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `callback` after `ms` of run time; returns a function that cancels it. For
   * watchers that re-arm often (the stream watchdog), where a promise and an AbortSignal per
   * wait would cost more than the wait itself.
   */
  setTimer(ms: number, callback: () => void): () => void;
  /**
   * Holds run time still while real work is in flight (a check in a child process): the
   * virtual clock does not jump to the next deadline until `work` settles, so a tool timeout
   * cannot fire just because the real work took a few wall milliseconds. Returns `work`.
   * On the real clock the held work passes at 1× whatever the time scale: real work takes the
   * time it really takes, while simulated waits stay scaled.
   */
  hold<T>(work: Promise<T>): Promise<T>;
  /**
   * Stops run time outright until `work` settles (a paused run): `now()` stands still and no
   * timer or sleep fires, whatever the clock. Unlike `hold` on the real clock, where held work
   * passes at 1×, a frozen real clock does not move at all; its timers are re-armed at the end
   * with the run time they still had to wait. On the virtual and paced clocks it is `hold`.
   */
  freeze<T>(work: Promise<T>): Promise<T>;
}

/** The error a sleep rejects with when its signal aborts without a reason of its own. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}
