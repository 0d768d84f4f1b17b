import { describe, expect, it } from 'vitest';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

function keepaliveRun(vendor: 'sim-anthropic' | 'sim-openai', intervalMs: number) {
  return runToEnd({
    provider: { vendor },
    faults: {
      rules: [
        {
          id: 'k',
          enabled: true,
          when: { kind: 'requests', numbers: [1] },
          action: { type: 'keepalive_only', intervalMs, style: 'ping' },
        },
      ],
      tools: [],
    },
  });
}

describe('keepalives are in the log (virtual clock)', () => {
  it.each(['sim-anthropic', 'sim-openai'] as const)(
    '%s: every keepalive of a stalled attempt is counted, and none resets the watchdog',
    async (vendor) => {
      const events = await keepaliveRun(vendor, 15_000);
      const [armed] = ofType(events, 'watchdog_armed');
      const [fired] = ofType(events, 'watchdog_fired');
      const pings = ofType(events, 'keepalive');
      // 120 s window, one every 15 s: 7 before the deadline, the 8th races it.
      expect(pings.length).toBeGreaterThanOrEqual(7);
      pings.forEach((p, n) => {
        expect(p).toMatchObject({
          request_no: 1,
          count: n + 1,
          style: vendor === 'sim-anthropic' ? 'ping' : 'comment',
        });
        expect(p.ts - armed!.ts).toBeCloseTo(15_000 * (n + 1), -1);
        expect(p.ts).toBeLessThanOrEqual(fired!.ts);
      });
      // The watchdog fired at its window from arming: the keepalives did not restart it.
      expect(fired!.ts - armed!.ts).toBeLessThan(120_100);
      expect(terminateOf(events).complete).toBe(true);

      // The browser puts them on the attempt that was open.
      const view = foldRawEvents(initialRunViewState(), events);
      const first = view.turns[0]!.attempts[0]!;
      expect(first.keepalives).toMatchObject({ count: pings.at(-1)!.count });
      expect(view.turns[0]!.attempts[1]!.keepalives).toBeUndefined();
    },
  );

  it('a fast keepalive fault is coalesced to about one event a second, and the final count is exact', async () => {
    const events = await keepaliveRun('sim-anthropic', 50);
    const [armed] = ofType(events, 'watchdog_armed');
    const [fired] = ofType(events, 'watchdog_fired');
    const pings = ofType(events, 'keepalive');
    const window = fired!.ts - armed!.ts;
    expect(pings.length).toBeLessThanOrEqual(Math.ceil(window / 1000) + 1);
    expect(pings.length).toBeGreaterThan(100);
    const counts = pings.map((p) => p.count);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // Every 50 ms for the whole window: the last event carries the total, not a stale count.
    expect(counts.at(-1)).toBeGreaterThanOrEqual(Math.floor(window / 50) - 1);
    expect(counts.at(-1)).toBeLessThanOrEqual(Math.floor(window / 50));
  });
});
