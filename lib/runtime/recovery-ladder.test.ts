import { describe, expect, it } from 'vitest';
import type { FaultRule, RunConfigInput } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

const VENDORS = ['sim-anthropic', 'sim-openai'] as const;

function withRule(
  vendor: (typeof VENDORS)[number],
  rule: Omit<FaultRule, 'enabled' | 'id'>,
  extra: Partial<RunConfigInput> = {},
) {
  return runToEnd({
    provider: { vendor },
    faults: { rules: [{ id: 'f', enabled: true, ...rule }], tools: [] },
    ...extra,
  });
}

describe.each(VENDORS)('recovery on %s (virtual clock)', (vendor) => {
  it('CodeSmith: three overloads then success → three retries inside the jitter band, run completes', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'requests', numbers: [1, 2, 3] },
      action: { type: 'http_error', status: 529 },
    });
    const retries = ofType(events, 'retry_scheduled');
    expect(retries.map((r) => r.next_attempt)).toEqual([2, 3, 4]);
    retries.forEach((r, n) => {
      const nominal = 1000 * 2 ** n;
      expect(r.category).toBe('overloaded');
      expect(r.wait_ms).toBeGreaterThanOrEqual(nominal * 0.9);
      expect(r.wait_ms).toBeLessThanOrEqual(nominal * 1.1);
    });
    // The wait really happened on the run clock.
    const firstRetry = ofType(events, 'model_request').find((e) => e.attempt === 2)!;
    expect(firstRetry.ts - retries[0]!.ts).toBeCloseTo(retries[0]!.wait_ms, 0);
    expect(ofType(events, 'fault_injected')).toHaveLength(3);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('honours Retry-After from a 429 as the wait actually taken', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'requests', numbers: [1] },
      action: { type: 'http_error', status: 429, retryAfterSec: 7 },
    });
    const [retry] = ofType(events, 'retry_scheduled');
    expect(retry).toMatchObject({ category: 'rate_limit', retry_after_ms: 7000, wait_ms: 7000 });
    expect(terminateOf(events).complete).toBe(true);
  });

  it('401 is not retried: the run ends at once, incomplete', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'always' },
      action: { type: 'http_error', status: 401 },
    });
    expect(ofType(events, 'retry_scheduled')).toEqual([]);
    expect(ofType(events, 'model_error')[0]).toMatchObject({ category: 'authentication', retryable: false });
    expect(terminateOf(events)).toMatchObject({ reason: 'model_error', complete: false });
  });

  it('keepalive-only: the watchdog fires at the base window (Empty) and the retry succeeds', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'requests', numbers: [1] },
      action: {
        type: 'keepalive_only',
        intervalMs: 15_000,
        style: vendor === 'sim-anthropic' ? 'ping' : 'comment',
      },
    });
    const [armed] = ofType(events, 'watchdog_armed');
    const [fired] = ofType(events, 'watchdog_fired');
    expect(fired).toMatchObject({ window_ms: 120_000, outcome: 'empty', attempt: 1 });
    expect(fired!.ts - armed!.ts).toBeGreaterThanOrEqual(120_000);
    expect(fired!.ts - armed!.ts).toBeLessThan(120_100);
    const [retry] = ofType(events, 'retry_scheduled');
    expect(retry).toMatchObject({ category: 'timeout', wait_ms: 0 });
    // The second attempt's window is widened by one retry.
    expect(ofType(events, 'watchdog_armed')[1]?.window_ms).toBe(150_000);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('CodeSmith: Empty watchdog retries spend the same budget — windows 120/150/180/210 s, then the call surfaces', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'always' },
      action: { type: 'stall', afterEvents: 0 },
    });
    expect(ofType(events, 'watchdog_fired').map((w) => [w.window_ms, w.outcome])).toEqual([
      [120_000, 'empty'],
      [150_000, 'empty'],
      [180_000, 'empty'],
      [210_000, 'empty'],
    ]);
    const retries = ofType(events, 'retry_scheduled');
    expect(retries.map((r) => [r.next_attempt, r.max_attempts, r.wait_ms])).toEqual([
      [2, 4, 0],
      [3, 4, 0],
      [4, 4, 0],
    ]);
    expect(terminateOf(events)).toMatchObject({ reason: 'retries_exhausted', complete: false });
    expect(terminateOf(events).message).toMatch(/retry budget of 3 spent; 4 attempts/);
  });

  it('CodeSmith: an Empty retry after three overloads is past the budget: the call surfaces', async () => {
    const events = await runToEnd({
      provider: { vendor },
      faults: {
        rules: [
          {
            id: 'o',
            enabled: true,
            when: { kind: 'requests', numbers: [1, 2, 3] },
            action: { type: 'http_error', status: 529 },
          },
          {
            id: 's',
            enabled: true,
            when: { kind: 'requests', numbers: [4] },
            action: { type: 'stall', afterEvents: 0 },
          },
        ],
        tools: [],
      },
    });
    expect(ofType(events, 'retry_scheduled').map((r) => r.category)).toEqual([
      'overloaded',
      'overloaded',
      'overloaded',
    ]);
    expect(ofType(events, 'watchdog_fired')).toHaveLength(1);
    expect(terminateOf(events)).toMatchObject({ reason: 'retries_exhausted', complete: false });
  });

  it('a stream error cap out of reach does not make Empty retries endless: the budget still bounds them', async () => {
    // (A cap of 0 used to mean "no cap"; the schema now refuses it.)
    const events = await withRule(
      vendor,
      { when: { kind: 'always' }, action: { type: 'stall', afterEvents: 0 } },
      { recovery: { watchdog: { streamErrorCap: 50 } } },
    );
    expect(ofType(events, 'watchdog_fired')).toHaveLength(4);
    expect(terminateOf(events).reason).toBe('retries_exhausted');
  });

  it('a drop after text content → Partial: kept, not retried, presented; the run stops there (CodeSmith)', async () => {
    const events = await withRule(
      vendor,
      { when: { kind: 'requests', numbers: [1] }, action: { type: 'drop', during: 'text' } },
      { policy: 'long-output' },
    );
    const first = ofType(events, 'llm_call')[0]!;
    expect(first).toMatchObject({ iteration: 1, partial: true, stop_reason: 'incomplete' });
    expect(ofType(events, 'retry_scheduled').filter((r) => r.iteration === 1)).toEqual([]);
    expect(ofType(events, 'model_error')[0]).toMatchObject({ partial: true });
    expect(ofType(events, 'output_recovery')).toMatchObject([{ action: 'stop_partial' }]);
    expect(terminateOf(events)).toMatchObject({ reason: 'partial_response', complete: false });
  });

  it('a Partial with the continuation option on: the loop sends the continuation prompt and goes on', async () => {
    const events = await withRule(
      vendor,
      { when: { kind: 'requests', numbers: [1] }, action: { type: 'drop', during: 'text' } },
      { policy: 'long-output', recovery: { output: { continueAfterPartial: true } } },
    );
    expect(ofType(events, 'output_recovery')[0]).toMatchObject({ action: 'continue_partial', iteration: 1 });
    expect(ofType(events, 'iteration_start').length).toBeGreaterThan(1);
    expect(terminateOf(events).reason).not.toBe('internal_error');
  });

  it('naive: the first error ends the run', async () => {
    const events = await withRule(
      vendor,
      { when: { kind: 'requests', numbers: [1] }, action: { type: 'http_error', status: 529 } },
      { preset: 'naive' },
    );
    expect(ofType(events, 'retry_scheduled')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ reason: 'model_error', complete: false });
  });

  it('s11: three consecutive overloads switch to the fallback model', async () => {
    const events = await withRule(
      vendor,
      { when: { kind: 'requests', numbers: [1, 2, 3] }, action: { type: 'http_error', status: 529 } },
      { preset: 's11' },
    );
    const [fallback] = ofType(events, 'fallback');
    expect(fallback).toBeDefined();
    expect(fallback!.to_model).not.toBe(fallback!.from_model);
    const retries = ofType(events, 'retry_scheduled');
    retries.forEach((r, n) => {
      const nominal = Math.min(500 * 2 ** n, 32_000);
      expect(r.wait_ms).toBeGreaterThanOrEqual(nominal);
      expect(r.wait_ms).toBeLessThanOrEqual(nominal * 1.25 + 1);
    });
    expect(retries[2]?.rung).toBe('degrade');
    expect(ofType(events, 'llm_call').at(-1)?.model).toBe(fallback!.to_model);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('spent budget surfaces every attempt and terminates retries_exhausted', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'always' },
      action: { type: 'http_error', status: 500 },
    });
    expect(ofType(events, 'model_request')).toHaveLength(4);
    expect(ofType(events, 'model_error')).toHaveLength(4);
    expect(terminateOf(events)).toMatchObject({ reason: 'retries_exhausted', complete: false });
    expect(terminateOf(events).message).toMatch(/4 attempts/);
  });

  it('five consecutive stream errors fail the call (stream error cap)', async () => {
    const events = await withRule(
      vendor,
      { when: { kind: 'always' }, action: { type: 'malformed', afterEvents: 0 } },
      { recovery: { retry: { maxRetries: 10 } } },
    );
    expect(ofType(events, 'model_error')).toHaveLength(5);
    expect(terminateOf(events).message).toMatch(/5 consecutive stream errors/);
  });

  it('a proxy 502 with an HTML body is classified and retried', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'requests', numbers: [1] },
      action: { type: 'proxy_error', status: 502, body: 'html' },
    });
    expect(ofType(events, 'model_error')[0]).toMatchObject({ status: 502, retryable: true });
    expect(terminateOf(events).complete).toBe(true);
  });

  it('connection reset before headers is a network error and is retried', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'requests', numbers: [1] },
      action: { type: 'connection', mode: 'reset' },
    });
    expect(ofType(events, 'model_error')[0]).toMatchObject({ category: 'network', retryable: true });
    expect(terminateOf(events).complete).toBe(true);
  });

  it('a mid-stream overloaded error event before content is retried', async () => {
    const events = await withRule(vendor, {
      when: { kind: 'requests', numbers: [1] },
      action: { type: 'sse_error', afterEvents: 1, errorType: 'overloaded_error' },
    });
    expect(ofType(events, 'model_error')[0]).toMatchObject({ category: 'overloaded' });
    expect(terminateOf(events).complete).toBe(true);
  });
});

describe('the SDK default preset', () => {
  it('retries inside the SDK, beneath the loop: the loop sees one attempt, and each request the SDK resent is an sdk_retry', async () => {
    const events = await runToEnd({
      preset: 'sdk-default',
      faults: {
        rules: [
          {
            id: 'o',
            enabled: true,
            when: { kind: 'next', count: 2 },
            action: { type: 'http_error', status: 529 },
          },
        ],
        tools: [],
      },
    });
    expect(ofType(events, 'fault_injected')).toHaveLength(2);
    expect(ofType(events, 'model_error')).toEqual([]);
    expect(ofType(events, 'retry_scheduled')).toEqual([]);
    // One request as far as the loop knows; the SDK made three, and said so.
    expect(ofType(events, 'model_request').filter((r) => r.iteration === 1)).toHaveLength(1);
    expect(
      ofType(events, 'sdk_retry').map((r) => [r.request_no, r.retry, r.max_retries, r.after_status]),
    ).toEqual([
      [2, 1, 2, 529],
      [3, 2, 2, 529],
    ]);
    expect(terminateOf(events).complete).toBe(true);
  });
});

describe('live fault toggles', () => {
  it('a set_faults control takes effect at the next request and is an event', async () => {
    let sent = false;
    const events = await runToEnd(
      {},
      {
        onEvent: (event, control) => {
          if (!sent && event.event === 'tool_call') {
            sent = true;
            control({
              action: 'set_faults',
              faults: {
                rules: [
                  {
                    id: 'o1',
                    enabled: true,
                    label: 'overloaded ×1',
                    when: { kind: 'next', count: 1 },
                    action: { type: 'http_error', status: 529 },
                  },
                ],
                tools: [],
              },
            });
          }
        },
      },
    );
    const [change] = ofType(events, 'control');
    expect(change).toMatchObject({ action: 'set_faults' });
    const [injected] = ofType(events, 'fault_injected');
    expect(injected!.seq).toBeGreaterThan(change!.seq);
    expect(injected!.label).toBe('overloaded ×1');
    expect(terminateOf(events).complete).toBe(true);
  });
});
