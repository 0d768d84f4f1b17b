/** Whose check a slot serves: one key per run, so one run's checks queue as one. */
export type SlotShare = string | symbol;

interface Waiter {
  grant: () => void;
}

/**
 * A fixed number of slots shared fairly among runs. A free slot goes at once to whoever asks;
 * when none is free, the check waits in its run's own queue, and each slot that frees goes to
 * the waiting run that holds the fewest slots, round-robin among equals. So a run that filled
 * every slot while it was alone gives them up one by one to the runs that arrive, and never
 * holds more than its share (slots ÷ runs asking, at least one) while another run waits: a
 * model that calls its check in a loop delays its own checks, not other runs'.
 */
export class FairSlots {
  private active = 0;
  private readonly held = new Map<SlotShare, number>();
  /** Runs with waiting checks, in round-robin order (a run served goes to the back). */
  private readonly waiting = new Map<SlotShare, Waiter[]>();

  constructor(private readonly slots: number) {}

  /**
   * A slot for `share`; resolves with its release (call it once the check is over), or with
   * undefined when `signal` aborts while the check is still waiting (it leaves the queue).
   */
  acquire(share: SlotShare, signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    if (this.active < this.slots) return Promise.resolve(this.take(share));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take(share));
        },
      };
      const onAbort = (): void => {
        const queue = this.waiting.get(share);
        const at = queue?.indexOf(waiter) ?? -1;
        if (at < 0) return;
        queue!.splice(at, 1);
        if (queue!.length === 0) this.waiting.delete(share);
        resolve(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.waiting.get(share);
      if (queue) queue.push(waiter);
      else this.waiting.set(share, [waiter]);
    });
  }

  /** Slots in use, and checks waiting per run (for tests and the bench). */
  state(): { active: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { active: this.active, waiting };
  }

  private take(share: SlotShare): () => void {
    this.active++;
    this.held.set(share, (this.held.get(share) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const left = (this.held.get(share) ?? 1) - 1;
      if (left > 0) this.held.set(share, left);
      else this.held.delete(share);
      this.grantNext();
    };
  }

  /** Gives a free slot to the waiting run holding the fewest slots (the first in round-robin order among equals). */
  private grantNext(): void {
    if (this.active >= this.slots) return;
    let next: SlotShare | undefined;
    let fewest = Infinity;
    for (const share of this.waiting.keys()) {
      const held = this.held.get(share) ?? 0;
      if (held < fewest) {
        fewest = held;
        next = share;
      }
    }
    if (next === undefined) return;
    const queue = this.waiting.get(next)!;
    const waiter = queue.shift()!;
    // Served: to the back of the round, or out of it when nothing of this run is left waiting.
    this.waiting.delete(next);
    if (queue.length > 0) this.waiting.set(next, queue);
    waiter.grant();
  }
}
