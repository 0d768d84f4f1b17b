import { describe, expect, it } from 'vitest';
import { MIN_SPAN_MS, panWindow, zoomWindow } from './time-window';

describe('time window', () => {
  const domain = 100_000;
  it('zooms around the point under the cursor', () => {
    const w = zoomWindow({ from: 0, to: domain }, { factor: 0.5, at: 25_000, domain });
    expect(w).toEqual({ from: 12_500, to: 62_500 });
  });
  it('pans by a share of the width and stops at the ends of the run', () => {
    expect(panWindow({ from: 10_000, to: 30_000 }, { by: 0.5, domain })).toEqual({
      from: 20_000,
      to: 40_000,
    });
    expect(panWindow({ from: 10_000, to: 30_000 }, { by: -5, domain })).toEqual({ from: 0, to: 20_000 });
    expect(panWindow({ from: 80_000, to: 100_000 }, { by: 1, domain })).toEqual({
      from: 80_000,
      to: 100_000,
    });
  });
  it('never zooms narrower than the minimum or wider than the run', () => {
    let w = { from: 0, to: domain };
    for (let i = 0; i < 40; i++) w = zoomWindow(w, { factor: 0.5, domain });
    expect(w.to - w.from).toBe(MIN_SPAN_MS);
    expect(zoomWindow({ from: 40_000, to: 60_000 }, { factor: 100, domain })).toEqual({
      from: 0,
      to: domain,
    });
  });
});
