import { describe, expect, it } from 'vitest';
import type { ErrorView, RetryView } from './run-view-state';
import { ladderErrorNote } from './ladder-error-note';

const error = (retryable: boolean): ErrorView => ({ ts: 0, seq: 1, message: 'x', status: 429, category: 'rate_limit', rule: 'status 429', retryable, partial: false });
const retry: RetryView = { ts: 0, seq: 2, nextAttempt: 2, maxAttempts: 4, category: 'rate_limit', rung: 'silent_retry', computedDelayMs: 900, waitMs: 900, reason: 'backoff' };

describe('ladderErrorNote', () => {
  it('marks the last attempt of a spent budget: a retryable 429 on attempt 4 of 4 gets no retry', () => {
    expect(ladderErrorNote({ attempt: 4, error: error(true) }, 4)).toBe(' · no retries left');
  });

  it('says nothing extra for a retryable error that was (or may still be) retried', () => {
    expect(ladderErrorNote({ attempt: 1, error: error(true), retry }, 4)).toBe('');
    expect(ladderErrorNote({ attempt: 2, error: error(true) }, 4)).toBe('');
    // Budget unknown (no retry event seen): no claim either way.
    expect(ladderErrorNote({ attempt: 1, error: error(true) }, 0)).toBe('');
  });

  it('marks an error that is not retryable as final, and an attempt without an error not at all', () => {
    expect(ladderErrorNote({ attempt: 1, error: error(false) }, 4)).toBe(' · final');
    expect(ladderErrorNote({ attempt: 4 }, 4)).toBe('');
  });
});
