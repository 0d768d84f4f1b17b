import { describe, expect, it } from 'vitest';
import { axisTickCount, ticksBetween, TICK_LABEL_PX } from './waterfall-scale';

/** Screen distance between neighbouring ticks on an axis `widthPx` wide. */
function minGapPx(from: number, to: number, widthPx: number): number {
  const t = ticksBetween(from, to, axisTickCount(widthPx));
  let gap = Infinity;
  for (let i = 1; i < t.length; i++) gap = Math.min(gap, ((t[i]! - t[i - 1]!) / (to - from)) * widthPx);
  return gap;
}

describe('axisTickCount', () => {
  it('keeps six ticks on a desktop axis', () => {
    expect(axisTickCount(816)).toBe(6);
  });

  it('labels a phone-width axis with ticks far enough apart not to overlap', () => {
    // 390 px screen: the axis is what is left beside the row labels (~246 px).
    for (const span of [3_000, 7_300, 44_000, 125_000, 600_000]) {
      expect(minGapPx(0, span, 246)).toBeGreaterThanOrEqual(TICK_LABEL_PX);
      expect(ticksBetween(0, span, axisTickCount(246)).length).toBeGreaterThanOrEqual(2);
    }
  });
});
