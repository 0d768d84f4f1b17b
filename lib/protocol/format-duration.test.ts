import { describe, expect, it } from 'vitest';
import { formatMs } from './format-duration';

describe('formatMs, the one duration formatter', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [999.6, '1 s'],
    [1000, '1 s'],
    [1500, '1.5 s'],
    [12_345, '12.3 s'],
    [60_000, '60 s'],
    [119_940, '119.9 s'],
    [119_960, '120 s'],
    [120_000, '120 s'],
    [120_100, '2 min'],
    [150_000, '2 min 30 s'],
    [180_000, '3 min'],
    [207_000, '3 min 27 s'],
    [300_000, '5 min'],
    [3_605_000, '60 min 05 s'],
    [7_200_000, '2 h'],
    [7_500_000, '2 h 05 min'],
    [86_400_000, '24 h'],
    [-1500, '-1.5 s'],
  ])('%d ms reads %s', (ms, words) => {
    expect(formatMs(ms)).toBe(words);
  });

  it('says "–" for what is not a duration', () => {
    expect([formatMs(undefined), formatMs(Number.NaN), formatMs(Infinity)]).toEqual(['–', '–', '–']);
  });
});
