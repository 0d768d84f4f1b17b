import { describe, expect, it } from 'vitest';
import type { FaultAction, RecoveryOverrides, RunEvent } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

const VENDORS = ['sim-anthropic', 'sim-openai'] as const;
/** CodeSmith's two layers: an HTTP layer retrying beneath the engine, the engine sleeping a fixed 2 s on rate limits. */
const STACKED: RecoveryOverrides = { sdkMaxRetries: 3, retry: { backoff: 'fixed' } };

function outage(
  vendor: (typeof VENDORS)[number],
  requests: number,
  action: FaultAction,
  recovery: RecoveryOverrides,
) {
  const numbers = Array.from({ length: requests }, (_, i) => i + 1);
  return runToEnd({
    provider: { vendor },
    preset: 'codesmith',
    recovery,
    faults: {
      rules: [{ id: 'outage', enabled: true, when: { kind: 'requests', numbers }, action }],
      tools: [],
    },
  });
}

/** The loop's attempts at the first turn, where the outage strikes. */
const firstTurnAttempts = (events: RunEvent[]) =>
  ofType(events, 'model_request').filter((e) => !e.background && e.iteration === 1);

describe.each(VENDORS)('retry layers on %s (virtual clock)', (vendor) => {
  it('stacked: the SDK resends each failed request 3 times beneath every loop attempt, each an sdk_retry on the run clock', async () => {
    const events = await outage(vendor, 8, { type: 'http_error', status: 503 }, STACKED);
    const resent = ofType(events, 'sdk_retry');
    // Two loop attempts of four HTTP requests each, then the third attempt's first request passes.
    expect(resent.map((r) => [r.request_no, r.retry, r.after_status])).toEqual([
      [2, 1, 503],
      [3, 2, 503],
      [4, 3, 503],
      [6, 1, 503],
      [7, 2, 503],
      [8, 3, 503],
    ]);
    expect(firstTurnAttempts(events).map((e) => e.attempt)).toEqual([1, 2, 3]);
    expect(ofType(events, 'fault_injected')).toHaveLength(8);
    // The SDK's own backoff, min(500·2ⁿ, 8000) less up to 25 %, waited on the run clock before the request went out.
    const faults = ofType(events, 'fault_injected');
    resent.forEach((r) => {
      const nominal = 500 * 2 ** (r.retry - 1);
      expect(r.wait_ms).toBeGreaterThanOrEqual(nominal * 0.75);
      expect(r.wait_ms).toBeLessThanOrEqual(nominal);
      const hit = faults.find((f) => f.request_no === r.request_no)!;
      expect(hit.ts - r.ts).toBeGreaterThanOrEqual(r.wait_ms - 1);
    });
    // The engine layer: a 503 is not a rate limit, so it goes again at once (no backoff), and says so.
    const retries = ofType(events, 'retry_scheduled');
    expect(retries.map((r) => [r.backoff_mode, r.wait_ms])).toEqual([
      ['fixed', 0],
      ['fixed', 0],
    ]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('stacked: a rate limit — the SDK honours Retry-After, the engine sleeps its fixed 2 s and does not read it', async () => {
    const events = await outage(vendor, 4, { type: 'http_error', status: 429, retryAfterSec: 7 }, STACKED);
    expect(ofType(events, 'sdk_retry').map((r) => [r.wait_ms, r.retry_after_ms])).toEqual([
      [7000, 7000],
      [7000, 7000],
      [7000, 7000],
    ]);
    // The response the SDK gave up on reached the loop as the vendor sent it (its Retry-After intact).
    const [retry] = ofType(events, 'retry_scheduled');
    expect(retry).toMatchObject({
      backoff_mode: 'fixed',
      category: 'rate_limit',
      wait_ms: 2000,
      retry_after_ms: 7000,
    });
    expect(retry!.reason).toMatch(/fixed 2 s; Retry-After 7 s not read/);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('single layer: the same outage is one HTTP request per loop attempt, and no sdk_retry', async () => {
    const events = await outage(vendor, 8, { type: 'http_error', status: 503 }, {});
    expect(ofType(events, 'sdk_retry')).toEqual([]);
    // CodeSmith's ladder allows 3 retries: the outage outlasts it, 4 requests in all.
    expect(firstTurnAttempts(events)).toHaveLength(4);
    expect(ofType(events, 'fault_injected')).toHaveLength(4);
  });
});
