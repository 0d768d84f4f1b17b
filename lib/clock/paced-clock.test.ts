import { describe, expect, it } from 'vitest';
import { createClock } from './index';
import { PacedClock } from './paced-clock';
import { VirtualClock } from './virtual-clock';

const wallSleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stream raced against a deadline, with a wait cancelled part way: what wakes, in order, at which run time. */
async function race(clock: VirtualClock): Promise<string[]> {
  const order: string[] = [];
  const cancelled = new AbortController();
  const producer = (async () => {
    for (let i = 0; i < 3; i++) {
      await clock.sleep(40);
      order.push(`chunk@${clock.now()}`);
    }
  })();
  const deadline = clock.sleep(100).then(() => order.push(`deadline@${clock.now()}`));
  const same = clock.sleep(100).then(() => order.push(`same deadline@${clock.now()}`));
  const aborted = clock.sleep(60, cancelled.signal).then(
    () => order.push('aborted sleep woke'),
    () => order.push(`aborted@${clock.now()}`),
  );
  clock.setTimer(50, () => cancelled.abort());
  await Promise.all([producer, deadline, same, aborted]);
  return order;
}

describe('PacedClock', () => {
  it('jumps at once while unpaced (a resumed run re-executing its stored log), and is paced again from where it stands', async () => {
    const clock = new PacedClock(1);
    clock.setPaced(false);
    // An hour of run time at a time scale of 1: paced, an hour of wall time; unpaced, at once.
    let backstop: ReturnType<typeof setTimeout> | undefined;
    const woke = await Promise.race([
      clock.sleep(3_600_000).then(() => 'woke'),
      new Promise((resolve) => (backstop = setTimeout(() => resolve('still waiting'), 20_000))),
    ]);
    clearTimeout(backstop);
    expect(woke).toBe('woke');
    expect(clock.now()).toBe(3_600_000);
    clock.setPaced(true);
    const started = performance.now();
    await clock.sleep(40);
    // Paced from the moment it was paced again, not from the hour it skipped.
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    expect(clock.now()).toBe(3_600_040);
  });

  it('wakes the same timers in the same order at the same run times as the virtual clock, each jump once wall time has caught up', async () => {
    const expected = await race(new VirtualClock());
    const paced = new PacedClock(0.5);
    const started = performance.now();
    expect(await race(paced)).toEqual(expected);
    // The last wake-up is at 120 ms of run time: 60 ms of wall time at 0.5, not at once.
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
    expect(paced.now()).toBe(120);
    expect(paced.pending).toBe(0);
  });

  it('reads run time exactly, whatever the wall clock did', async () => {
    const clock = new PacedClock(0.02);
    const started = performance.now();
    await clock.sleep(2_000); // 40 ms of wall time
    expect(clock.now()).toBe(2_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    // A busy stretch of wall time moves nothing: run time stands where the last jump left it.
    const busyUntil = performance.now() + 30;
    while (performance.now() < busyUntil);
    expect(clock.now()).toBe(2_000);
  });

  it('finds the earliest timer again after a wall wait: one aborted during the wait never fires, one set earlier fires first', async () => {
    const clock = new PacedClock(0.1);
    const woke: string[] = [];
    const controller = new AbortController();
    const aborted = clock.sleep(1_000, controller.signal).then(
      () => woke.push('aborted sleep woke'),
      () => woke.push('aborted'),
    );
    const later = clock.sleep(2_000).then(() => woke.push(`later@${clock.now()}`));
    await wallSleep(20); // the clock waits in wall time for 1,000 ms of run time (100 ms)
    expect(clock.now()).toBe(0);
    controller.abort(new Error('a live control'));
    // Set during the wall wait, due before the others: it goes first, at its own run time.
    const earlier = clock.sleep(300).then(() => woke.push(`earlier@${clock.now()}`));
    await Promise.all([aborted, later, earlier]);
    expect(woke).toEqual(['aborted', 'earlier@300', 'later@2000']);
  });

  it('keeps run time still while real work is held, and paces the next jump from the end of that work', async () => {
    const clock = new PacedClock(0.05);
    const order: string[] = [];
    const timeout = clock.sleep(1_000).then(() => order.push(`timeout@${clock.now()}`));
    const workStarted = performance.now();
    let workEnded = 0;
    const work = clock
      .hold(wallSleep(80))
      .then(() => (workEnded = performance.now()))
      .then(() => order.push(`work done@${clock.now()}`));
    await Promise.all([timeout, work]);
    // 80 ms of real work is longer than the timeout's 50 ms of wall time, yet the work ends first
    // (at run time 0), and the timeout's 50 ms are waited after it.
    expect(order).toEqual(['work done@0', 'timeout@1000']);
    expect(workEnded - workStarted).toBeGreaterThanOrEqual(79);
    expect(performance.now() - workEnded).toBeGreaterThanOrEqual(45);
  });

  it('still calls a run stuck when no timer is left and nothing runs', async () => {
    const clock = new PacedClock(0.05);
    const stuck = new Promise<number>((resolve) => clock.whenStuck(() => resolve(clock.now())));
    await clock.sleep(400);
    void new Promise<void>(() => {});
    expect(await stuck).toBe(400);
  });

  it('is the clock a config with clock "paced" gets, at its time scale, and refuses a scale that is not positive', () => {
    const clock = createClock({ kind: 'paced', timeScale: 0.04, startAt: 1_500 });
    expect(clock).toBeInstanceOf(PacedClock);
    expect({ kind: clock.kind, timeScale: clock.timeScale, now: clock.now() }).toEqual({
      kind: 'paced',
      timeScale: 0.04,
      now: 1_500,
    });
    expect(createClock({ kind: 'virtual', timeScale: 0.04 }).timeScale).toBe(1);
    expect(() => new PacedClock(0)).toThrow('time scale must be > 0');
  });
});
