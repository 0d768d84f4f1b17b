import { describe, expect, it } from 'vitest';
import { countOf } from './format';

describe('countOf', () => {
  it('puts the noun in the number the count needs', () => {
    expect(countOf(1, 'run')).toBe('1 run');
    expect(countOf(0, 'run')).toBe('0 runs');
    expect(countOf(1200, 'run')).toBe('1,200 runs');
    expect(countOf(2, 'summary', 'summaries')).toBe('2 summaries');
  });
});
