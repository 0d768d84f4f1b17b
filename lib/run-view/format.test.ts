import { describe, expect, it } from 'vitest';
import { countOf, timeScaleLabel } from './format';

describe('countOf', () => {
  it('puts the noun in the number the count needs', () => {
    expect(countOf(1, 'run')).toBe('1 run');
    expect(countOf(0, 'run')).toBe('0 runs');
    expect(countOf(1200, 'run')).toBe('1,200 runs');
    expect(countOf(2, 'summary', 'summaries')).toBe('2 summaries');
  });
});

describe('timeScaleLabel', () => {
  it('says which way the clock is scaled (timeScale is wall time per unit of run time)', () => {
    expect(timeScaleLabel(0.1)).toBe('10× faster');
    expect(timeScaleLabel(0.05)).toBe('20× faster');
    expect(timeScaleLabel(0.3)).toBe('3.3× faster');
    expect(timeScaleLabel(5)).toBe('5× slower');
    expect(timeScaleLabel(1.5)).toBe('1.5× slower');
    expect(timeScaleLabel(1)).toBe('real time');
  });
});
