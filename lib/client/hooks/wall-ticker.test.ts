import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWallTicker } from './wall-ticker';

describe('wall ticker: every live number on the page reads the same tick', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('two displays of one wait read the same now at every tick, and a coarse one moves only on its ticks, in step', () => {
    const ticker = createWallTicker({ tickMs: 100 });
    const seen: Array<[number, number, number]> = [];
    // Like the attempt card and the header (every tick) and the waterfall (every 3rd tick).
    const card = ticker.subscribe(() => seen.push([ticker.now(), ticker.now(), ticker.now(3)]));
    const header = ticker.subscribe(() => undefined);
    vi.advanceTimersByTime(650);
    expect(seen.map(([a]) => a - 1_000_000)).toEqual([100, 200, 300, 400, 500, 600]);
    for (const [a, b] of seen) expect(a).toBe(b);
    // The coarse reading is always one of the fine readings: the one when it was first asked
    // for, then only the 3rd and 6th ticks'.
    expect(seen.map(([, , c]) => c - 1_000_000)).toEqual([100, 100, 300, 300, 300, 600]);
    card();
    header();
  });

  it('stops when nothing counts, and starts again from the wall time of now, not of the last tick', () => {
    const ticker = createWallTicker({ tickMs: 100 });
    const stop = ticker.subscribe(() => undefined);
    vi.advanceTimersByTime(200);
    stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5_000);
    const again = ticker.subscribe(() => undefined);
    expect(ticker.now() - 1_000_000).toBe(5_200);
    expect(ticker.now(3) - 1_000_000).toBe(5_200);
    again();
  });
});
