import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from './virtual-clock';
import { RealClock } from './real-clock';
import { createRandom } from './random';

describe('VirtualClock', () => {
  it('jumps straight to each deadline, waking timers in deadline order', async () => {
    const clock = new VirtualClock();
    const woke: Array<[string, number]> = [];
    await Promise.all([
      clock.sleep(120_000).then(() => woke.push(['watchdog', clock.now()])),
      clock.sleep(1_000).then(() => woke.push(['backoff', clock.now()])),
      clock.sleep(1_000).then(() => woke.push(['second at same deadline', clock.now()])),
    ]);
    expect(woke).toEqual([
      ['backoff', 1_000],
      ['second at same deadline', 1_000],
      ['watchdog', 120_000],
    ]);
  });

  it('lets a chain of waits add up in run time while taking no wall time', async () => {
    const clock = new VirtualClock();
    const started = performance.now();
    for (let i = 0; i < 10; i++) await clock.sleep(60_000);
    expect(clock.now()).toBe(600_000);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('rejects an aborted sleep with the signal reason and never wakes it', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const stalled = clock.sleep(10_000, controller.signal);
    await clock.sleep(5);
    controller.abort(new Error('watchdog'));
    await expect(stalled).rejects.toThrow('watchdog');
    expect(clock.pending).toBe(0);
  });

  it('races a stream against a deadline the same way every time', async () => {
    const race = async (): Promise<string[]> => {
      const clock = new VirtualClock();
      const order: string[] = [];
      const producer = (async () => {
        for (let i = 0; i < 3; i++) {
          await clock.sleep(40);
          order.push(`chunk@${clock.now()}`);
        }
      })();
      const deadline = clock.sleep(100).then(() => order.push(`deadline@${clock.now()}`));
      await Promise.all([producer, deadline]);
      return order;
    };
    const first = await race();
    expect(first).toEqual(['chunk@40', 'chunk@80', 'deadline@100', 'chunk@120']);
    expect(await race()).toEqual(first);
  });
});

describe('RealClock', () => {
  it('reports run time divided by the time scale', async () => {
    const clock = new RealClock(0.01);
    const before = performance.now();
    await clock.sleep(2_000); // 20 ms of wall time
    const wall = performance.now() - before;
    expect(wall).toBeLessThan(1_000);
    expect(clock.now()).toBeGreaterThanOrEqual(1_900);
  });
});

describe('createRandom', () => {
  it('repeats its sequence for a seed and keeps forks independent', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    expect([a.next(), a.next(), a.int(1, 6)]).toEqual([b.next(), b.next(), b.int(1, 6)]);
    const forkA = createRandom(42).fork('faults');
    const forkB = createRandom(42).fork('faults');
    const other = createRandom(42).fork('jitter');
    const seqA = [forkA.next(), forkA.next()];
    expect([forkB.next(), forkB.next()]).toEqual(seqA);
    expect([other.next(), other.next()]).not.toEqual(seqA);
  });
});

describe('Clock.setTimer', () => {
  it('fires on the virtual clock in deadline order with sleeps, and a cancelled timer never fires', async () => {
    const clock = new VirtualClock();
    const fired: string[] = [];
    clock.setTimer(300, () => fired.push(`a@${clock.now()}`));
    const cancel = clock.setTimer(100, () => fired.push('cancelled'));
    cancel();
    await clock.sleep(200);
    fired.push(`slept@${clock.now()}`);
    await clock.sleep(200);
    expect(fired).toEqual(['slept@200', 'a@300']);
  });
});

describe('Clock.hold', () => {
  it('keeps virtual time still while real work is in flight, then resumes', async () => {
    const clock = new VirtualClock();
    const order: string[] = [];
    // A tool timeout of 1 s raced against real work that takes ~30 wall ms.
    const deadline = clock.sleep(1_000).then(() => order.push(`timeout@${clock.now()}`));
    const work = clock
      .hold(new Promise<string>((resolve) => setTimeout(() => resolve('done'), 30)))
      .then((v) => order.push(`${v}@${clock.now()}`));
    expect(clock.held).toBe(1);
    await Promise.all([deadline, work]);
    expect(order).toEqual(['done@0', 'timeout@1000']);
    expect(clock.held).toBe(0);
  });

  it('releases the hold when the work rejects', async () => {
    const clock = new VirtualClock();
    const failing = clock.hold(new Promise((_, reject) => setTimeout(() => reject(new Error('boom')), 10)));
    await expect(failing).rejects.toThrow('boom');
    expect(clock.held).toBe(0);
    await clock.sleep(500);
    expect(clock.now()).toBe(500);
  });

  it('passes work through unchanged on the real clock', async () => {
    const clock = new RealClock(1);
    await expect(clock.hold(Promise.resolve(7))).resolves.toBe(7);
  });
});

describe('VirtualClock.whenStuck', () => {
  it('reports once no timer is left and nothing runs, instead of leaving the wait hanging', async () => {
    const clock = new VirtualClock();
    let stuckAt: number | undefined;
    const stuck = new Promise<void>((resolve) =>
      clock.whenStuck(() => {
        stuckAt = clock.now();
        resolve();
      }),
    );
    await clock.sleep(1_000);
    // A wait nothing will ever end: no timer, no work in flight.
    void new Promise<void>(() => {});
    await stuck;
    expect(stuckAt).toBe(1_000);
  });

  it('stays quiet while work keeps setting timers, and once told to stop watching', async () => {
    const clock = new VirtualClock();
    let stuck = 0;
    clock.whenStuck(() => stuck++);
    for (let i = 0; i < 200; i++) await clock.sleep(10);
    expect(stuck).toBe(0);
    expect(clock.now()).toBe(2_000);
    clock.whenStuck(undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stuck).toBe(0);
  });

  it('waits for real work in flight before calling the run stuck', async () => {
    const clock = new VirtualClock();
    const calls: string[] = [];
    clock.whenStuck(() => calls.push('stuck'));
    await clock.hold(new Promise((resolve) => setTimeout(resolve, 40)));
    calls.push('work done');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual(['work done', 'stuck']);
  });
});

describe('VirtualClock quiet hops', () => {
  it('runs every promise continuation and nextTick, however deep the chain, before time moves', async () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    const woke = clock.sleep(10).then(() => seen.push(`woke@${clock.now()}`));
    // A long chain of continuations with nextTicks between them, started after the timer was set.
    let chain: Promise<void> = Promise.resolve();
    for (let i = 0; i < 500; i++)
      chain = chain.then(() => new Promise<void>((resolve) => process.nextTick(resolve)));
    void chain.then(() => seen.push(`chain done@${clock.now()}`));
    await woke;
    expect(seen).toEqual(['chain done@0', 'woke@10']);
  });

  it('wakes a sleep after a single event-loop turn when nothing else runs', async () => {
    const clock = new VirtualClock();
    await clock.sleep(1); // let any first-call setup pass
    const spy = vi.spyOn(globalThis, 'setImmediate');
    try {
      for (let i = 0; i < 20; i++) await clock.sleep(5);
      expect(spy).toHaveBeenCalledTimes(20);
    } finally {
      spy.mockRestore();
    }
    expect(clock.now()).toBe(101);
  });
});
