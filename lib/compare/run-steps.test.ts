import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { runSteps } from './run-steps';

describe('runSteps labels', () => {
  it('names an error category in the words the run view uses ("429 rate limited", not "429 rate_limit")', () => {
    const base = { run_id: 'r', iteration: 1, attempt: 1 } as const;
    const events: RunEvent[] = [
      {
        ...base,
        seq: 0,
        ts: 0,
        event: 'model_error',
        message: '429',
        status: 429,
        category: 'rate_limit',
        rule: 'status:429',
        retryable: true,
        partial: false,
      },
      {
        ...base,
        seq: 1,
        ts: 0,
        event: 'retry_scheduled',
        next_attempt: 2,
        max_attempts: 4,
        category: 'rate_limit',
        rung: 'silent_retry',
        computed_delay_ms: 900,
        retry_after_ms: 7000,
        wait_ms: 7000,
        reason: 'Retry-After',
      },
    ];
    expect(runSteps(events).map((s) => s.label)).toEqual([
      'error: 429 rate limited',
      'retry 1 of 3 (silent retry) after rate limited, waits 7 s',
    ]);
  });
});
