import { describe, expect, it } from 'vitest';
import type { DeclinedView } from '@/lib/run-view/run-view-state';
import { ladderErrorNote } from './ladder-error-note';

const declined = (rule: DeclinedView['rule']): DeclinedView => ({
  ts: 0,
  seq: 3,
  rule,
  next: 'surface',
  maxAttempts: 4,
  why: 'no retry',
});

describe('ladderErrorNote', () => {
  it("says what the call's own decision was: budget spent, ruled out by the classifier, Partial kept", () => {
    expect(ladderErrorNote({ declined: declined('budget_spent') })).toBe(' · no retries left');
    expect(ladderErrorNote({ declined: declined('not_retryable') })).toBe(' · final');
    expect(ladderErrorNote({ declined: declined('partial_kept') })).toBe(' · kept, not retried');
    expect(ladderErrorNote({ declined: declined('retry_off') })).toBe(' · retry off');
  });

  it('claims nothing for an attempt without a decline: retried, or its decision not yet arrived', () => {
    // The old note inferred " · no retries left" from the attempt number and a budget seen on
    // earlier retries; now only the engine's own retry_declined event can say it.
    expect(ladderErrorNote({})).toBe('');
  });
});
