import { describe, expect, it } from 'vitest';
import {
  presetPolicy,
  resolveRecovery,
  type FaultRule,
  type RetryPolicy,
  type RunConfigInput,
  type RunEvent,
} from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/**
 * A retry policy written as data, run through the real runtime on the simulated vendor with
 * faults injected by lib/faults: the decisions in the log are the ones the rows ask for.
 */

const exponential = {
  kind: 'exponential',
  baseMs: 1_000,
  capMs: 60_000,
  jitter: 'symmetric',
  jitterRatio: 0.1,
} as const;

/** "Retry 400s twice, rate limits five times, cool a model down for 60 s after three failures." */
const POLICY: RetryPolicy = {
  name: 'litellm-style',
  foreground: {
    enabled: true,
    maxRetries: 5,
    rule: 'per-kind budgets',
    backoff: exponential,
    retryAfter: { honour: true, capMs: 60_000 },
    rows: {
      invalid_input: { action: 'retry', budget: 2 },
      rate_limit: { action: 'retry', budget: 5, backoff: { kind: 'fixed', ms: 500 } },
      internal: { action: 'retry' },
      authentication: { action: 'final' },
    },
  },
  background: {
    enabled: true,
    maxRetries: 1,
    rule: 'network only',
    backoff: exponential,
    retryAfter: { honour: false, capMs: 0 },
    rows: { network: { action: 'retry' } },
  },
  fallback: {
    enabled: true,
    afterOverloads: 20,
    chain: [{ model: 'claude-sim-haiku' }],
    cooldown: { afterFailures: 3, seconds: 60 },
  },
};

function run(rules: Array<Omit<FaultRule, 'enabled' | 'id'>>, extra: Partial<RunConfigInput> = {}) {
  return runToEnd({
    provider: { vendor: 'sim-anthropic' },
    recovery: { policy: POLICY },
    faults: { rules: rules.map((r, n) => ({ id: `f${n}`, enabled: true, ...r })), tools: [] },
    ...extra,
  });
}

const requestsOn = (numbers: number[]) => ({ kind: 'requests', numbers }) as const;

describe('a retry policy as data decides each retry of a run', () => {
  it('400s are retried twice: the third is refused by its row although the call has retries left', async () => {
    const events = await run([{ when: requestsOn([1, 2, 3]), action: { type: 'http_error', status: 400 } }]);
    const scheduled = ofType(events, 'retry_scheduled');
    expect(
      scheduled.map((r) => [r.category, r.policy_row?.row, r.policy_row?.used, r.policy_row?.left]),
    ).toEqual([
      ['invalid_input', 'invalid_input', 1, 1],
      ['invalid_input', 'invalid_input', 2, 0],
    ]);
    const [declined] = ofType(events, 'retry_declined');
    expect(declined).toMatchObject({
      rule: 'budget_spent',
      attempt: 3,
      max_attempts: 6,
      policy_row: { row: 'invalid_input', rule: 'per-kind budgets', budget: 2, used: 2, left: 0 },
    });
    expect(declined!.why).toContain('retry budget of 2 for invalid request spent');
    expect(terminateOf(events)).toMatchObject({ reason: 'retries_exhausted', complete: false });
  });

  it('rate limits are retried five times, each after the row’s own fixed 500 ms, and the sixth is refused', async () => {
    const events = await run([
      { when: requestsOn([1, 2, 3, 4, 5, 6]), action: { type: 'http_error', status: 429 } },
    ]);
    const scheduled = ofType(events, 'retry_scheduled');
    expect(scheduled).toHaveLength(5);
    for (const [n, r] of scheduled.entries()) {
      expect(r).toMatchObject({
        category: 'rate_limit',
        wait_ms: 500,
        backoff_mode: 'fixed',
        policy_row: { row: 'rate_limit', budget: 5, used: n + 1, left: 4 - n, backoff_source: 'row' },
      });
    }
    expect(ofType(events, 'retry_declined')).toMatchObject([
      { rule: 'budget_spent', attempt: 6, why: expect.stringContaining('retry budget of 5 spent') },
    ]);
  });

  it('the rows are counted apart: two rate limits do not spend the 400s’ two retries', async () => {
    const events = await run([
      { when: requestsOn([1, 2]), action: { type: 'http_error', status: 429 } },
      { when: requestsOn([3, 4]), action: { type: 'http_error', status: 400 } },
    ]);
    expect(ofType(events, 'retry_scheduled').map((r) => [r.policy_row?.row, r.policy_row?.used])).toEqual([
      ['rate_limit', 1],
      ['rate_limit', 2],
      ['invalid_input', 1],
      ['invalid_input', 2],
    ]);
    expect(ofType(events, 'retry_declined')).toEqual([]);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('a model that fails three attempts in a row is skipped for 60 s of run time: every request in that minute goes to the next model', async () => {
    const events = await run([{ when: requestsOn([1, 2, 3]), action: { type: 'http_error', status: 500 } }]);
    const cooldowns = ofType(events, 'model_cooldown');
    const start = cooldowns.find((c) => c.phase === 'start')!;
    expect(start).toMatchObject({ model: 'claude-sim-sonnet', until_ms: start.ts + 60_000 });
    expect(start.reason).toContain(
      'claude-sim-sonnet failed 3 attempts in a row: skipped for 60 s of run time; the call goes on with claude-sim-haiku',
    );
    expect(ofType(events, 'fallback')[0]).toMatchObject({
      from_model: 'claude-sim-sonnet',
      to_model: 'claude-sim-haiku',
      cause: 'cooldown',
    });
    // Every request inside the cooldown goes to the fallback (the run ends before the minute is out).
    const requests = ofType(events, 'model_request').filter((r) => !r.background);
    const during = requests.filter((r) => r.ts > start.ts);
    expect(during.length).toBeGreaterThan(3);
    expect(during.every((r) => r.ts < start.until_ms && r.model === 'claude-sim-haiku')).toBe(true);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('when its cooldown has passed on the run clock, the run’s own model takes the call back', async () => {
    const short: RetryPolicy = {
      ...POLICY,
      fallback: { ...POLICY.fallback, cooldown: { afterFailures: 3, seconds: 5 } },
    };
    const events = await runToEnd({
      recovery: { policy: short },
      faults: {
        rules: [
          {
            id: 'f',
            enabled: true,
            when: requestsOn([1, 2, 3]),
            action: { type: 'http_error', status: 500 },
          },
        ],
        tools: [],
      },
    });
    const [start, end] = ofType(events, 'model_cooldown');
    expect(start).toMatchObject({ phase: 'start', model: 'claude-sim-sonnet' });
    expect(end).toMatchObject({ phase: 'end', model: 'claude-sim-sonnet', until_ms: start!.until_ms });
    expect(end!.ts).toBeGreaterThanOrEqual(start!.until_ms);
    expect(ofType(events, 'fallback').map((f) => [f.from_model, f.to_model, f.cause])).toEqual([
      ['claude-sim-sonnet', 'claude-sim-haiku', 'cooldown'],
      ['claude-sim-haiku', 'claude-sim-sonnet', 'cooldown'],
    ]);
    const requests = ofType(events, 'model_request').filter((r) => !r.background);
    expect(
      requests.filter((r) => r.ts >= start!.until_ms).every((r) => r.model === 'claude-sim-sonnet'),
    ).toBe(true);
  });
});

describe('every preset is a policy', () => {
  // 529s (s11's fallback after 3), a 429 with Retry-After, a 500, a 400 (retried by CodeSmith only).
  const faults = {
    rules: [
      { id: 'o', enabled: true, when: requestsOn([1, 2, 3]), action: { type: 'http_error', status: 529 } },
      {
        id: 'r',
        enabled: true,
        when: requestsOn([5]),
        action: { type: 'http_error', status: 429, retryAfterSec: 3 },
      },
      { id: 'i', enabled: true, when: requestsOn([7]), action: { type: 'http_error', status: 500 } },
      { id: 'b', enabled: true, when: requestsOn([9]), action: { type: 'http_error', status: 400 } },
    ],
    tools: [],
  } satisfies RunConfigInput['faults'];
  const recorded = (events: RunEvent[]) => events.filter((e) => e.event !== 'run_start');

  for (const preset of ['codesmith', 's11', 'course'] as const) {
    it(`${preset}: its policy given as data runs the same log as the preset`, async () => {
      const policy = presetPolicy(resolveRecovery(preset));
      const asPreset = await runToEnd({ preset, faults, seed: 11 });
      const asPolicy = await runToEnd({ preset, faults, seed: 11, recovery: { policy } });
      expect(
        ofType(asPreset, 'retry_scheduled').length + ofType(asPreset, 'retry_declined').length,
      ).toBeGreaterThan(0);
      expect(recorded(asPolicy)).toEqual(recorded(asPreset));
    });
  }
});
