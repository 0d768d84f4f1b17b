import { describe, expect, it } from 'vitest';
import type { AttemptView, ErrorView } from './run-view-state';
import { retriedFailures } from './retried-failures';

const error = { category: 'overloaded' } as ErrorView;
const cut = { category: 'network', partial: true } as ErrorView;

describe('retriedFailures', () => {
  it('counts failed attempts that were followed by another attempt', () => {
    const attempts: Pick<AttemptView, 'attempt' | 'error' | 'watchdog'>[] = [{ attempt: 1, error }, { attempt: 2, error }, { attempt: 3 }];
    expect(retriedFailures(attempts, 3)).toBe(2);
  });

  it('does not count a cut attempt whose partial answer was kept (nothing was recovered)', () => {
    expect(retriedFailures([{ attempt: 1, error: cut }], 1)).toBe(0);
    expect(retriedFailures([{ attempt: 1, error }, { attempt: 2, error: cut }], 2)).toBe(1);
  });

  it('counts every failure while no attempt has been kept', () => {
    expect(retriedFailures([{ attempt: 1, error }, { attempt: 2, watchdog: { fired: { ts: 1, seq: 2, outcome: 'empty' } } as AttemptView['watchdog'] }], undefined)).toBe(2);
  });
});
