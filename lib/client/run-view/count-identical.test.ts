import { describe, expect, it } from 'vitest';
import { countIdentical } from './count-identical';

describe('countIdentical', () => {
  it('folds repeated lines into one with its count, keeping the order each first appeared', () => {
    const thinking = { kind: 'thinking', detail: 'thinking block from claude-sim-sonnet dropped' };
    const signature = { kind: 'signature', detail: 'signature without a credential dropped' };
    const dropped = [thinking, { ...thinking }, signature, { ...thinking }, { ...thinking }, { ...thinking }];
    expect(countIdentical(dropped, (d) => `${d.kind}\u0000${d.detail}`)).toEqual([
      { item: thinking, count: 5 },
      { item: signature, count: 1 },
    ]);
  });

  it('keeps lines that differ in any part apart', () => {
    expect(countIdentical(['a', 'b', 'a ']).map((c) => c.count)).toEqual([1, 1, 1]);
  });
});
