import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealClock } from './real-clock';

/** Real work for the hold: a wall-clock wait, which is exactly what the real clock measures. */
const wallWork = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('RealClock', () => {
  afterEach(() => vi.restoreAllMocks());

  it('stands still while frozen: no timer fires, and each keeps the run time it still had', async () => {
    const clock = new RealClock(1);
    let firedAt: number | undefined;
    clock.setTimer(40, () => (firedAt = clock.now()));
    const frozen = clock.freeze(wallWork(120));
    const before = clock.now();
    await wallWork(100);
    // Three times the timer's wait has passed in wall time: frozen, it has not fired, and time has not moved.
    expect(firedAt).toBeUndefined();
    expect(clock.now()).toBe(before);
    await frozen;
    for (let k = 0; k < 100 && firedAt === undefined; k++) await wallWork(20);
    // It fires 40 ms of run time after the freeze began: the 120 ms frozen are not in it.
    expect(firedAt).toBeGreaterThanOrEqual(before + 40);
    expect(firedAt).toBeLessThan(before + 40 + 120);
  });

  it('counts held real work at 1×, not multiplied by the time scale', async () => {
    const clock = new RealClock(0.01);
    const wallStart = performance.now();
    const runStart = clock.now();
    await clock.hold(wallWork(60));
    const wall = performance.now() - wallStart;
    const run = clock.now() - runStart;
    // Unheld, 60 ms of wall time at 0.01 would read 6,000 ms of run time.
    expect(run).toBeGreaterThanOrEqual(50);
    expect(run).toBeLessThan(wall + 50);
    expect(run).toBeLessThan(wall / 0.01 / 4);
  });

  it('keeps a timer armed in run time across a hold: it fires at its run-time deadline', async () => {
    const clock = new RealClock(0.01);
    let firedAt: number | undefined;
    clock.setTimer(1_000, () => (firedAt = clock.now()));
    const held = clock.hold(wallWork(50));
    await held;
    // 1,000 ms of run time cannot have passed during 50 ms of held (1×) time.
    expect(firedAt).toBeUndefined();
    await clock.sleep(2_000);
    expect(firedAt).toBeGreaterThanOrEqual(999);
  });

  it('scales simulated waits when nothing is held', async () => {
    const clock = new RealClock(0.01);
    const wallStart = performance.now();
    await clock.sleep(3_000);
    expect(clock.now()).toBeGreaterThanOrEqual(2_999);
    // 3 s of run time at 0.01 is about 30 ms of wall time.
    expect(performance.now() - wallStart).toBeLessThan(1_500);
  });

  it('arms wall timers for whole milliseconds, never shorter than the run-time wait', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const clock = new RealClock(0.37);
    let fired = 0;
    // Armed a moment apart, each wait is a slightly different fraction of a millisecond.
    for (const ms of [50, 50, 50, 33.3, 7.01]) clock.setTimer(ms, () => fired++);
    const delays = spy.mock.calls.map((call) => call[1]!);
    expect(delays).toHaveLength(5);
    for (const delay of delays) expect(Number.isInteger(delay)).toBe(true);
    // Node keeps one timer list a distinct duration: equal waits share one.
    expect(new Set(delays.slice(0, 3)).size).toBe(1);
    expect(delays[0]).toBeGreaterThanOrEqual(50 * 0.37 - 0.01);
    await clock.sleep(60);
    expect(fired).toBe(5);
  });

  it('cancels a sleep through its signal', async () => {
    const clock = new RealClock(1);
    const controller = new AbortController();
    const sleeping = clock.sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
  });
});
