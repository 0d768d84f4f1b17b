import { describe, expect, it } from 'vitest';
import { foldRawEvents } from '../run-view/fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { runToEnd } from '@/lib/testing/run-to-end';
import { vendorStatLabel } from './vendor-stat-label';

describe('the run header on a keepalive-only stream', () => {
  it.each(['sim-anthropic', 'sim-openai'] as const)(
    '%s: says the stream is open with keepalives only, not "asked, no reply yet"',
    async (vendor) => {
      const events = await runToEnd({
        provider: { vendor },
        faults: {
          rules: [
            {
              id: 'k',
              enabled: true,
              when: { kind: 'requests', numbers: [1] },
              action: { type: 'keepalive_only', intervalMs: 15_000, style: 'ping' },
            },
          ],
          tools: [],
        },
      });
      // The run as the header sees it just after the third keepalive, the watchdog still counting.
      const third = events.findIndex((e) => e.event === 'keepalive' && e.count === 3);
      expect(third).toBeGreaterThan(0);
      const view = foldRawEvents(initialRunViewState(), events.slice(0, third + 1));
      expect(view.turns[0]!.attempts[0]!.keepalives?.count).toBe(3);
      const label = (keepalives: boolean) =>
        vendorStatLabel({
          status: 'running',
          vendor: view.vendor,
          model: view.model,
          turns: keepalives
            ? view.turns
            : view.turns.map((t) => ({
                ...t,
                attempts: t.attempts.map((a) => ({ ...a, keepalives: undefined })),
              })),
        });
      expect(label(true)).toBe('stream open, keepalives only');
      // The same moment without the keepalive events is a request with no reply yet.
      expect(label(false)).toBe('asked, no reply yet');
    },
  );
});
