import { describe, expect, it } from 'vitest';
import { createRandom, VirtualClock } from '@/lib/clock';
import { PRESETS, resolveRecovery, type EventBody, type RunEvent } from '@/lib/protocol';
import { EventLog } from '../event-log';
import type { Classification } from '../recovery';
import { decideRetry } from './decide-retry';
import { retry, type AttemptOutcome } from './retry';
import { backgroundAccount, foregroundAccount } from './retry-account';

const verdict = (
  category: Classification['category'],
  extra: Partial<Classification> = {},
): Classification => ({
  category,
  rule: `test ${category}`,
  retryable: !['authentication', 'authorization', 'context_length', 'invalid_input'].includes(category),
  message: category,
  ...extra,
});

const surface = () => ({ next: 'surface' as const, then: 'the error surfaces' });

function harness() {
  const clock = new VirtualClock();
  const events: RunEvent[] = [];
  const log = new EventLog('r', clock, (e) => events.push(e));
  return { clock, events, emit: (b: EventBody) => log.emit(b), signal: new AbortController().signal };
}

/** Fails with the given verdicts in order, then succeeds with the attempt number. */
function script(failures: Array<Classification | (AttemptOutcome<number> & { ok: false })>) {
  const started: number[] = [];
  return {
    started,
    attempt: async (n: number): Promise<AttemptOutcome<number>> => {
      started.push(n);
      const next = failures[n - 1];
      if (!next) return { ok: true, value: n };
      return 'ok' in next ? next : { ok: false, verdict: next };
    },
  };
}

describe('decideRetry', () => {
  const random = createRandom(1);
  it('s11 retries only rate limits and overloads, and never passes Retry-After', () => {
    const account = foregroundAccount(PRESETS.s11);
    expect(decideRetry({ account, attempt: 1, verdict: verdict('internal'), random })).toMatchObject({
      retry: false,
      rule: 'category_not_retried',
      exhausted: false,
    });
    expect(decideRetry({ account, attempt: 1, verdict: verdict('network'), random })).toMatchObject({
      retry: false,
    });
    expect(decideRetry({ account, attempt: 1, verdict: verdict('parse'), random })).toMatchObject({
      retry: false,
    });
    const limited = decideRetry({
      account,
      attempt: 1,
      verdict: verdict('rate_limit', { retryAfterMs: 7_000 }),
      random,
    });
    expect(limited).toMatchObject({ retry: true, retryAfterMs: 7_000 });
    if (limited.retry) expect(limited.waitMs).toBeLessThan(7_000);
  });

  it('with the classifier ignored (retryOn everything) a final error is retried and says so; a context overflow still is not', () => {
    const account = foregroundAccount({
      ...PRESETS.codesmith,
      retry: { ...PRESETS.codesmith.retry, retryOn: 'everything' },
    });
    const quota = verdict('rate_limit', {
      retryable: false,
      lasting: 'spent_quota',
      rule: 'vendor code insufficient_quota',
    });
    const retried = decideRetry({ account, attempt: 1, verdict: quota, random });
    expect(retried).toMatchObject({ retry: true });
    if (retried.retry)
      expect(retried.reason).toContain(
        'retried although the classifier calls it final (vendor code insufficient_quota)',
      );
    expect(decideRetry({ account, attempt: 1, verdict: verdict('authentication'), random })).toMatchObject({
      retry: true,
    });
    expect(decideRetry({ account, attempt: 1, verdict: verdict('context_length'), random })).toMatchObject({
      retry: false,
      rule: 'not_retryable',
    });
    // With the classifier heeded, the same spent quota ends the call.
    const heeded = foregroundAccount(resolveRecovery('codesmith', { retry: { retryOn: 'transient' } }));
    expect(decideRetry({ account: heeded, attempt: 1, verdict: quota, random })).toMatchObject({
      retry: false,
      rule: 'not_retryable',
    });
  });

  it('CodeSmith’s exclusion rule: a bad request and a spent quota are retried within the budget, saying the classifier calls them final', () => {
    const account = foregroundAccount(PRESETS.codesmith);
    const quota = verdict('rate_limit', {
      retryable: false,
      lasting: 'spent_quota',
      rule: 'vendor code insufficient_quota',
    });
    for (const failed of [
      quota,
      verdict('invalid_input', { rule: 'status 400' }),
      verdict('invalid_input', { rule: 'status 404' }),
    ]) {
      const decided = decideRetry({ account, attempt: 1, verdict: failed, random });
      expect(decided).toMatchObject({ retry: true });
      if (decided.retry)
        expect(decided.reason).toContain(
          `retried although the classifier calls it final (${failed.rule}): CodeSmith’s exclusion rule`,
        );
      expect(decideRetry({ account, attempt: 4, verdict: failed, random })).toMatchObject({
        retry: false,
        rule: 'budget_spent',
        exhausted: true,
      });
    }
    for (const final of ['authentication', 'authorization', 'context_length'] as const) {
      expect(decideRetry({ account, attempt: 1, verdict: verdict(final), random })).toMatchObject({
        retry: false,
        rule: 'not_retryable',
      });
    }
    // The caller's own abort is never retried, whatever the rule.
    expect(
      decideRetry({
        account,
        attempt: 1,
        verdict: verdict('unknown', { retryable: false, lasting: 'aborted' }),
        random,
      }),
    ).toMatchObject({
      retry: false,
      rule: 'not_retryable',
    });
  });

  it('s11 range(10): the 10th failed attempt is the last', () => {
    const account = foregroundAccount(PRESETS.s11);
    expect(decideRetry({ account, attempt: 9, verdict: verdict('overloaded'), random })).toMatchObject({
      retry: true,
    });
    expect(decideRetry({ account, attempt: 10, verdict: verdict('overloaded'), random })).toMatchObject({
      retry: false,
      rule: 'budget_spent',
      exhausted: true,
      why: 'retry budget of 9 spent',
    });
  });

  it('CodeSmith retries everything but what its exclusion rule names; an Empty firing waits nothing but still spends the budget', () => {
    const account = foregroundAccount(PRESETS.codesmith);
    expect(decideRetry({ account, attempt: 1, verdict: verdict('internal'), random })).toMatchObject({
      retry: true,
    });
    expect(decideRetry({ account, attempt: 1, verdict: verdict('authentication'), random })).toMatchObject({
      retry: false,
      rule: 'not_retryable',
      exhausted: false,
    });
    const empty = { immediate: 'empty stream' };
    // The third retry of the call, the first on its row (rowSpent 0): the row's budget is the account's.
    expect(decideRetry({ account, attempt: 3, verdict: verdict('timeout'), hints: empty, random })).toEqual({
      retry: true,
      computedMs: 0,
      waitMs: 0,
      reason: 'empty stream',
      row: {
        row: 'timeout',
        rule: 'exclusion (CodeSmith)',
        budget: 3,
        used: 1,
        left: 2,
        backoff_source: 'immediate',
      },
    });
    expect(
      decideRetry({ account, attempt: 4, verdict: verdict('timeout'), hints: empty, random }),
    ).toMatchObject({ retry: false, exhausted: true });
  });

  it('a stop hint ends the call whatever the budget', () => {
    const account = foregroundAccount(PRESETS.codesmith);
    expect(
      decideRetry({
        account,
        attempt: 1,
        verdict: verdict('parse'),
        hints: { stop: '5 consecutive stream errors' },
        random,
      }),
    ).toEqual({
      retry: false,
      rule: 'stream_error_cap',
      why: '5 consecutive stream errors',
      exhausted: true,
      row: {
        row: 'parse',
        rule: 'exclusion (CodeSmith)',
        budget: 3,
        used: 0,
        left: 3,
        backoff_source: 'none',
      },
    });
  });

  it('the background account: CodeSmith 3 retries at 1/2/4 s (±10 %), network/rate-limit/timeout only', () => {
    const account = backgroundAccount(PRESETS.codesmith);
    expect(account.maxRetries).toBe(3);
    const waits = [1, 2, 3].map((attempt) =>
      decideRetry({ account, attempt, verdict: verdict('network'), random }),
    );
    waits.forEach((w, n) => {
      expect(w.retry).toBe(true);
      if (w.retry) {
        expect(w.waitMs).toBeGreaterThanOrEqual(1_000 * 2 ** n * 0.9);
        expect(w.waitMs).toBeLessThanOrEqual(1_000 * 2 ** n * 1.1);
      }
    });
    expect(decideRetry({ account, attempt: 4, verdict: verdict('network'), random })).toMatchObject({
      retry: false,
      exhausted: true,
      why: 'background retry budget of 3 spent',
    });
    expect(decideRetry({ account, attempt: 1, verdict: verdict('overloaded'), random })).toMatchObject({
      retry: false,
      rule: 'category_not_retried',
      why: 'overloaded is not retried for background calls (only network, rate-limit and timeout errors are)',
    });
  });
});

describe('retry on the virtual clock', () => {
  it('sleeps each decided wait on the run clock and records it as retry_scheduled on its account', async () => {
    const h = harness();
    const run = script([verdict('overloaded'), verdict('overloaded')]);
    const result = await retry({
      account: foregroundAccount(PRESETS.codesmith),
      attempt: run.attempt,
      clock: h.clock,
      random: createRandom(3),
      emit: h.emit,
      signal: h.signal,
      iteration: 1,
      onDecline: surface,
    });
    expect(result).toEqual({ ok: true, value: 3, attempts: 3 });
    const retries = h.events.filter((e) => e.event === 'retry_scheduled');
    expect(retries.map((r) => [r.attempt, r.next_attempt, r.max_attempts, r.account])).toEqual([
      [1, 2, 4, 'foreground'],
      [2, 3, 4, 'foreground'],
    ]);
    const total = retries.reduce((sum, r) => sum + r.wait_ms, 0);
    expect(h.clock.now()).toBeCloseTo(total, 0);
  });

  it('every retry carries its backoff formula: base, exponent, the exponential term, the cap, the jitter drawn and the result', async () => {
    const h = harness();
    const config = resolveRecovery('codesmith', { retry: { maxRetries: 8, maxDelayMs: 10_000 } });
    const run = script(Array(6).fill(verdict('overloaded')));
    await retry({
      account: foregroundAccount(config),
      attempt: run.attempt,
      clock: h.clock,
      random: createRandom(3),
      emit: h.emit,
      signal: h.signal,
      iteration: 1,
      onDecline: surface,
    });
    const retries = h.events.flatMap((e) => (e.event === 'retry_scheduled' ? [e] : []));
    expect(retries).toHaveLength(6);
    retries.forEach((r, n) => {
      const b = r.backoff!;
      expect(b).toMatchObject({
        base_ms: 1_000,
        exponent: n,
        exponential_ms: 1_000 * 2 ** n,
        cap_ms: 10_000,
        jitter_mode: 'symmetric',
        jitter_ratio: 0.1,
      });
      expect(Math.abs(b.jitter_factor - 1)).toBeLessThanOrEqual(0.1);
      // The result is the capped term times the jitter drawn, and it is the delay the event computed.
      expect(b.result_ms).toBe(Math.round(Math.min(b.exponential_ms, b.cap_ms) * b.jitter_factor));
      expect(r.computed_delay_ms).toBe(b.result_ms);
      expect(r.wait_ms).toBe(b.result_ms);
    });
    const [first, , third, , fifth] = retries.map((r) => r.backoff!);
    expect(first!.formula).toBe(
      `1000 × 2⁰ = 1000, cap 10000, jitter ×${Number(first!.jitter_factor.toFixed(3))} → ${first!.result_ms} ms`,
    );
    expect(third!.formula).toBe(
      `1000 × 2² = 4000, cap 10000, jitter ×${Number(third!.jitter_factor.toFixed(3))} → ${third!.result_ms} ms`,
    );
    // Past the cap the formula says where the term was cut.
    expect(fifth!.formula).toBe(
      `1000 × 2⁴ = 16000, cap 10000 → 10000, jitter ×${Number(fifth!.jitter_factor.toFixed(3))} → ${fifth!.result_ms} ms`,
    );
  });

  it('an immediate retry (an Empty stream) has no backoff to show', async () => {
    const h = harness();
    const run = script([{ ok: false, verdict: verdict('timeout'), immediate: 'nothing arrived' }]);
    await retry({
      account: foregroundAccount(PRESETS.codesmith),
      attempt: run.attempt,
      clock: h.clock,
      random: createRandom(3),
      emit: h.emit,
      signal: h.signal,
      iteration: 1,
      onDecline: surface,
    });
    const [scheduled] = h.events.flatMap((e) => (e.event === 'retry_scheduled' ? [e] : []));
    expect(scheduled).toMatchObject({ wait_ms: 0, computed_delay_ms: 0 });
    expect(scheduled!.backoff).toBeUndefined();
  });

  it('gives up with the verdict, the attempts made and why; never throws for a failed attempt', async () => {
    const h = harness();
    const run = script(Array.from({ length: 20 }, () => verdict('rate_limit')));
    const result = await retry({
      account: foregroundAccount(PRESETS.s11),
      attempt: run.attempt,
      clock: h.clock,
      random: createRandom(3),
      emit: h.emit,
      signal: h.signal,
      iteration: 1,
      onDecline: surface,
    });
    expect(result).toMatchObject({
      ok: false,
      attempts: 10,
      exhausted: true,
      why: 'retry budget of 9 spent',
    });
    expect(run.started).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The giving up is an event of its own, after the last attempt, with the rule and what follows.
    const last = h.events.at(-1);
    expect(last).toMatchObject({
      event: 'retry_declined',
      attempt: 10,
      attempts: 10,
      max_attempts: 10,
      rule: 'budget_spent',
      next: 'surface',
    });
    expect(last?.event === 'retry_declined' && last.why).toBe(
      'no retry — retry budget of 9 spent; the error surfaces.',
    );
    expect(h.events.filter((e) => e.event === 'retry_scheduled')).toHaveLength(9);
  });

  it('a failure the account refuses is declined at once, with the refusing rule', async () => {
    const h = harness();
    const run = script([verdict('authentication')]);
    const result = await retry({
      account: foregroundAccount(PRESETS.codesmith),
      attempt: run.attempt,
      clock: h.clock,
      random: createRandom(3),
      emit: h.emit,
      signal: h.signal,
      iteration: 1,
      onDecline: surface,
    });
    expect(result).toMatchObject({ ok: false, attempts: 1, exhausted: false });
    expect(h.events).toEqual([
      expect.objectContaining({
        event: 'retry_declined',
        attempt: 1,
        rule: 'not_retryable',
        next: 'surface',
        account: 'foreground',
      }),
    ]);
  });

  it('labels background retries and keeps their own account', async () => {
    const h = harness();
    const run = script([verdict('rate_limit', { retryAfterMs: 2_000 })]);
    const recovery = resolveRecovery('codesmith');
    const result = await retry({
      account: backgroundAccount(recovery),
      attempt: run.attempt,
      clock: h.clock,
      random: createRandom(3),
      emit: h.emit,
      signal: h.signal,
      iteration: 2,
      label: 'background title',
      onDecline: surface,
    });
    expect(result.ok).toBe(true);
    expect(h.events[0]).toMatchObject({
      event: 'retry_scheduled',
      account: 'background',
      wait_ms: 2_000,
      max_attempts: 4,
      reason: 'background title: Retry-After 2 s honoured',
    });
  });

  it('an abort during the wait rejects with the run signal reason', async () => {
    const h = harness();
    const controller = new AbortController();
    const run = script([verdict('overloaded')]);
    const pending = retry({
      account: foregroundAccount(PRESETS.codesmith),
      attempt: run.attempt,
      clock: h.clock,
      random: createRandom(3),
      emit: h.emit,
      signal: controller.signal,
      iteration: 1,
      onDecline: surface,
    });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
