import { describe, expect, it } from 'vitest';
import { rowsOutOfViewCaption } from './waterfall-scroll';

describe('rowsOutOfViewCaption: what the waterfall box hides', () => {
  it('says nothing while every row fits', () => {
    expect(rowsOutOfViewCaption({ rows: 12, scrollTop: 0, rowPx: 20 })).toBeNull();
  });

  it('at the top of a long run: the rows below, counted', () => {
    // 40 rows of 20 px in a 256 px box: rows 1–13 are (at least partly) in view.
    expect(rowsOutOfViewCaption({ rows: 40, scrollTop: 0, rowPx: 20 })).toBe(
      '↓ 27 rows below — scroll the waterfall',
    );
  });

  it('scrolled to the middle: above and below; at the bottom: only above', () => {
    expect(rowsOutOfViewCaption({ rows: 40, scrollTop: 200, rowPx: 20 })).toBe(
      '↑ 10 rows above · ↓ 17 rows below — scroll the waterfall',
    );
    expect(rowsOutOfViewCaption({ rows: 40, scrollTop: 800 - 256, rowPx: 20 })).toBe(
      '↑ 27 rows above — scroll the waterfall',
    );
    expect(rowsOutOfViewCaption({ rows: 14, scrollTop: 24, rowPx: 20 })).toBe(
      '↑ 1 row above — scroll the waterfall',
    );
  });
});
