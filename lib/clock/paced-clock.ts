import { VirtualClock } from './virtual-clock';

/**
 * How late (wall ms) a jump may come without the pace slipping: a wall timer fires on a whole
 * millisecond and a little after it, and over hundreds of stream chunks those late pieces
 * would add up. A jump later than this (a busy machine, a long piece of work) moves the pace
 * on from when it really came, so what follows is not rushed to catch up.
 */
const SLACK_MS = 5;

/**
 * The virtual clock, paced for a watcher: the same discrete-event time (the same order of
 * wake-ups, the same run times, time still while real work is held, the same deadlock
 * detection), so a run on it is the virtual-clock run event for event at any load. The only
 * difference is when a jump happens in wall time: not at once, but once wall time has caught
 * up with it at the time scale — the clock reached its current time at wall time W, so a jump
 * of D ms of run time waits until W + D × timeScale. At 0.05 a 120 s watchdog fires 6 s after
 * the stream went quiet, as on the real clock, and its run time reads 120 s exactly, unlike the
 * real clock, where it reads whenever the busy machine got round to it.
 *
 * Nothing recorded reads wall time: a late jump is the same jump later. Held real work (a check)
 * takes the wall time it takes with run time standing still, and the pace starts again from its
 * end. Before each jump the earliest timer is found again, so a timer set or removed during the
 * wall wait (an abort, a live control) is honoured as on the virtual clock.
 */
export class PacedClock extends VirtualClock {
  override readonly kind = 'paced' as const;
  override readonly timeScale: number;
  /** Wall time (performance.now) at which run time reached its current value. */
  private wallAtCurrent = performance.now();
  /** The wall time the jump under way was due at. */
  private dueWall = 0;
  private wallTimer: ReturnType<typeof setTimeout> | undefined;
  /** False while a resumed run re-executes its stored log: the jumps come at once, as on the virtual clock. */
  private paced = true;

  /** `timeScale`: wall time per unit of run time. `startAt`: run time at creation (a fork's). */
  constructor(timeScale: number, startAt = 0) {
    super(startAt);
    if (!(timeScale > 0)) throw new RangeError(`time scale must be > 0, got ${timeScale}`);
    this.timeScale = timeScale;
  }

  /**
   * Stops or starts the pacing: a run taken up after a restart re-executes its stored log unpaced
   * (nobody is watching those events arrive again), then is paced from where it goes on. Run
   * time is the same either way; only when the jumps happen in wall time differs.
   */
  setPaced(paced: boolean): void {
    if (paced && !this.paced) this.wallAtCurrent = performance.now();
    this.paced = paced;
  }

  protected override waitBeforeJump(runMs: number, retry: () => void): boolean {
    if (!this.paced) return false;
    clearTimeout(this.wallTimer);
    this.wallTimer = undefined;
    this.dueWall = this.wallAtCurrent + runMs * this.timeScale;
    const wait = this.dueWall - performance.now();
    if (wait <= 0) return false;
    this.wallTimer = setTimeout(() => {
      this.wallTimer = undefined;
      retry();
    }, Math.ceil(wait));
    return true;
  }

  protected override jumped(): void {
    this.wallAtCurrent = Math.max(this.dueWall, performance.now() - SLACK_MS);
  }

  protected override heldWorkEnded(): void {
    this.wallAtCurrent = performance.now();
  }
}
