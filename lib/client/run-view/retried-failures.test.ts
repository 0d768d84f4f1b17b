import { describe, expect, it } from 'vitest';
import type { RetryView } from '@/lib/run-view/run-view-state';
import { retriedFailures } from './retried-failures';

const retry = { seq: 1 } as RetryView;

describe('retriedFailures', () => {
  it('counts exactly the attempts the retry function answered with another attempt', () => {
    expect(retriedFailures([{ retry }, { retry }, {}])).toBe(2);
  });

  it('does not count a failure that was not retried (a kept Partial, a last attempt given up on)', () => {
    expect(retriedFailures([{}])).toBe(0);
    expect(retriedFailures([{ retry }, {}])).toBe(1);
  });
});
