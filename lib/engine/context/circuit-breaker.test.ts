import { describe, expect, it } from 'vitest';
import type { FaultRule } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker', () => {
  it('opens after 3 consecutive failures, refuses until the cool-down is over, then lets one probe through', () => {
    const breaker = new CircuitBreaker({ failures: 3, cooldownMs: 300_000 });
    expect(breaker.failure(1_000).state).toBe('closed');
    expect(breaker.failure(2_000).state).toBe('closed');
    expect(breaker.failure(3_000)).toMatchObject({
      state: 'open',
      consecutiveFailures: 3,
      reopenAt: 303_000,
    });
    expect(breaker.check(302_999).verdict).toMatchObject({ allowed: false, reopenAt: 303_000 });
    const probe = breaker.check(303_000);
    expect(probe.verdict).toEqual({ allowed: true, probe: true });
    expect(probe.transition?.state).toBe('half_open');
    // A failed probe opens it again for a full cool-down.
    expect(breaker.failure(304_000)).toMatchObject({ state: 'open', reopenAt: 604_000 });
    breaker.check(604_000);
    expect(breaker.success()).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(breaker.check(604_001).verdict).toEqual({ allowed: true, probe: false });
  });

  it('a success between failures resets the count', () => {
    const breaker = new CircuitBreaker({ failures: 3, cooldownMs: 1_000 });
    breaker.failure(0);
    breaker.failure(0);
    breaker.success();
    expect(breaker.failure(0).state).toBe('closed');
  });
});

/** Summary calls only: the loop's own requests pass untouched. */
const brokenSummarizer = (count?: number): FaultRule => ({
  id: 'summarizer',
  enabled: true,
  target: 'background',
  when: count ? { kind: 'next', count } : { kind: 'always' },
  action: { type: 'http_error', status: 500 },
});

/** growing-context on a 16k window with the proactive threshold low enough that every turn past it asks for a summary. */
const config = (rule: FaultRule, compaction: Record<string, unknown> = {}) => ({
  provider: { vendor: 'sim-anthropic' as const, model: 'claude-sim-16k' },
  scenario: 'growing-context',
  recovery: { compaction: { thresholdRatio: 0.3, ...compaction } },
  faults: { rules: [rule], tools: [] },
});

describe('the breaker through the loop', () => {
  it('opens after 3 failed summaries, refuses while open, probes after the cool-down (run time) and closes', async () => {
    const events = await runToEnd(config(brokenSummarizer(3), { breakerCooldownMs: 5_000 }));
    const states = ofType(events, 'breaker').map((b) => [b.state, b.consecutive_failures]);
    expect(states).toEqual([
      ['closed', 1],
      ['closed', 2],
      ['open', 3],
      ['half_open', 3],
      ['closed', 0],
    ]);
    const opened = ofType(events, 'breaker').find((b) => b.state === 'open')!;
    const halfOpen = ofType(events, 'breaker').find((b) => b.state === 'half_open')!;
    expect(opened.reopen_at).toBe(opened.ts + 5_000);
    expect(halfOpen.ts).toBeGreaterThanOrEqual(opened.reopen_at!);
    // While open, summaries were refused without a request to the vendor.
    const refused = ofType(events, 'compaction').filter(
      (c) => c.step === 'summary' && /breaker open/.test(c.reason),
    );
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(
        ofType(events, 'model_request').some(
          (m) => m.background && m.iteration === r.iteration && m.ts >= r.ts - 1e-6 && m.ts <= r.ts,
        ),
      ).toBe(false);
    }
    // The probe was a real summary call, and it replaced history.
    const probe = ofType(events, 'compaction').find((c) => c.step === 'summary' && c.ok)!;
    expect(probe.iteration).toBe(halfOpen.iteration);
    expect(probe.tokens_after).toBeLessThan(probe.tokens_before);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('"Compact now" bypasses an open breaker and, when the summary succeeds, closes it', async () => {
    let asked = false;
    const events = await runToEnd(config(brokenSummarizer(3)), {
      onEvent: (event, control) => {
        if (event.event === 'breaker' && event.state === 'open' && !asked) {
          asked = true;
          control({ action: 'compact' });
        }
      },
    });
    const control = ofType(events, 'control').find((c) => c.action === 'compact')!;
    expect(control).toBeDefined();
    const manual = ofType(events, 'compaction').find((c) => c.trigger === 'manual')!;
    expect(manual).toMatchObject({ step: 'summary', ok: true, iteration: control.iteration });
    const breakerStates = ofType(events, 'breaker').map((b) => b.state);
    expect(breakerStates).toEqual(['closed', 'closed', 'open', 'closed']);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('with the breaker off, every turn past the threshold tries (and fails) another summary', async () => {
    const events = await runToEnd(config(brokenSummarizer(), { breaker: false }));
    expect(ofType(events, 'breaker')).toEqual([]);
    const failed = ofType(events, 'compaction').filter(
      (c) => c.step === 'summary' && !c.ok && c.trigger === 'proactive',
    );
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.every((f) => f.reason === 'the summary call failed')).toBe(true);
  });
});
