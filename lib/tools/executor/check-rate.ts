/** What the check rate decided for one call. */
export type CheckRateVerdict = { admitted: true } | { admitted: false; count: number; nextAt: number };

/**
 * The run's check rate: at most `max` sandboxed checks in any `windowMs` of run time (a
 * sliding window over the run clock, so on the virtual clock it counts simulated time). A
 * refused check is not counted: a model that keeps asking is answered at once, and the next
 * check runs when the oldest counted one leaves the window. `max` 0 is off.
 */
export class CheckRate {
  private readonly admittedAt: number[] = [];

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  admit(now: number): CheckRateVerdict {
    if (this.max <= 0) return { admitted: true };
    while (this.admittedAt.length > 0 && this.admittedAt[0]! <= now - this.windowMs) this.admittedAt.shift();
    if (this.admittedAt.length < this.max) {
      this.admittedAt.push(now);
      return { admitted: true };
    }
    return { admitted: false, count: this.admittedAt.length, nextAt: this.admittedAt[0]! + this.windowMs };
  }
}
