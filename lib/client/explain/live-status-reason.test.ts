import { describe, expect, it } from 'vitest';
import { waitingReason } from '@/lib/run-view/explain/describe-run';
import { liveStatusReason } from './live-status-reason';

describe('liveStatusReason', () => {
  const waiting = 'waiting 7 s: 429 rate limited, then attempt 2 of 4, server asked 7 s';

  it('counts a retry wait down on the run clock instead of repeating its total', () => {
    const at = (now: number) =>
      liveStatusReason({
        status: 'waiting',
        reason: waiting,
        now,
        pendingWait: { ts: 10_000, waitMs: 7_000 },
      });
    expect(at(10_000)).toBe(
      'waiting 7 s more of 7 s: 429 rate limited, then attempt 2 of 4, server asked 7 s',
    );
    expect(at(12_800)).toBe(
      'waiting 4.2 s more of 7 s: 429 rate limited, then attempt 2 of 4, server asked 7 s',
    );
    // Past the wait (the next request is about to go out) it never goes negative.
    expect(at(20_000)).toMatch(/^waiting 0 ms more of 7 s:/);
  });

  it('says how long a stream has sent no content once the silence passes a second', () => {
    const streaming = 'turn 3: streaming from claude-sim-sonnet';
    expect(liveStatusReason({ status: 'running', reason: streaming, now: 5_400, quietSince: 5_000 })).toBe(
      streaming,
    );
    expect(liveStatusReason({ status: 'running', reason: streaming, now: 17_300, quietSince: 5_000 })).toBe(
      'turn 3: streaming from claude-sim-sonnet · no content for 12.3 s',
    );
  });

  it('leaves every other status as the event wrote it', () => {
    expect(
      liveStatusReason({
        status: 'failed',
        reason: 'failed: retry budget exhausted',
        now: 9e9,
        quietSince: 0,
      }),
    ).toBe('failed: retry budget exhausted');
    expect(
      liveStatusReason({ status: 'running', reason: waiting, now: 9e9, pendingWait: { ts: 0, waitMs: 1 } }),
    ).toBe(waiting);
  });

  it('recognises every waiting reason the reducer writes, so none is left showing its total', () => {
    for (const account of ['foreground', 'background', 'context'] as const) {
      const reason = waitingReason(
        {
          run_id: 'r',
          seq: 4,
          ts: 1_000,
          event: 'retry_scheduled',
          iteration: 2,
          attempt: 1,
          next_attempt: 2,
          max_attempts: 4,
          category: 'overloaded',
          rung: 'degrade',
          computed_delay_ms: 2_100,
          wait_ms: 2_100,
          reason: 'overloaded',
          account,
        },
        undefined,
      );
      expect(
        liveStatusReason({
          status: 'waiting',
          reason,
          now: 2_000,
          pendingWait: { ts: 1_000, waitMs: 2_100 },
        }),
      ).toMatch(/^waiting 1\.1 s more of 2\.1 s: /);
    }
  });
});
