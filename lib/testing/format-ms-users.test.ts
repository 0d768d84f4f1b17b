import { describe, expect, it } from 'vitest';
import { describeEvent } from '@/lib/cli/print-event';
import { CircuitBreaker } from '@/lib/engine/context/circuit-breaker';
import { StreamIdleTimeout } from '@/lib/engine/idle-watchdog';
import { rateLimited, rateLimitedNext, rateLimitedReason } from '@/lib/tools/executor/messages';
import type { RunEvent } from '@/lib/protocol';

// Every duration written for people goes through formatMs: the same wait reads the same in the
// engine's reasons, the tools' answers, the terminal and the page (whose words are formatMs's).
describe('durations in reasons and answers are formatMs', () => {
  it("the watchdog's abort reason says its window as the page says it", () => {
    expect(new StreamIdleTimeout(120_000).message).toContain('no stream event for 120 s,');
  });

  it("the summary breaker's refusal says the cool-down left in minutes", () => {
    const breaker = new CircuitBreaker({ failures: 1, cooldownMs: 300_000 });
    breaker.failure(0);
    expect(breaker.check(0).verdict).toMatchObject({ reason: 'circuit breaker open: next probe in 5 min' });
    expect(breaker.check(299_500).verdict).toMatchObject({
      reason: 'circuit breaker open: next probe in 500 ms',
    });
  });

  it("the check rate's answers say minutes past two", () => {
    expect(rateLimitedReason('run_check', 2, 2, 300_000)).toBe(
      'run_check ran 2 times in the last 5 min of run time (limit 2 per 5 min)',
    );
    expect(rateLimitedNext('run_check', 150_000, 12_500)).toBe(
      'refused without running; run_check may run again at 2 min 30 s of run time (in 12.5 s)',
    );
    expect(rateLimited('run_check', 2, 300_000, 150_000)).toContain(
      'It can run again in 2 min 30 s of run time.',
    );
  });

  it("the terminal's lines", () => {
    const base = { run_id: 'r', seq: 1, ts: 1_000, iteration: 1 };
    expect(
      describeEvent({
        ...base,
        event: 'watchdog_fired',
        window_ms: 150_000,
        outcome: 'retrying',
      } as unknown as RunEvent),
    ).toContain('watchdog fired after 2 min 30 s idle');
  });
});
