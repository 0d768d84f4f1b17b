import { describe, expect, it } from 'vitest';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';

/**
 * Streamed text is coalesced for up to 50 ms of run time; what arrived before a stall must
 * reach the log (and the browser) then, not when the stall ends — a teaching view that holds
 * the text back for the whole watchdog window shows the wrong thing at the wrong time.
 */
describe.each(['sim-anthropic', 'sim-openai'] as const)('coalesced deltas before a stall (%s)', (vendor) => {
  it('the text that arrived is logged within the coalescing window, long before the watchdog fires', async () => {
    const events = await runToEnd({
      provider: { vendor },
      task: 'Describe this project.',
      faults: {
        rules: [
          {
            id: 's',
            enabled: true,
            when: { kind: 'requests', numbers: [1] },
            action: { type: 'stall', during: 'text' },
          },
        ],
        tools: [],
      },
    });
    const [fired] = ofType(events, 'watchdog_fired');
    const [open] = ofType(events, 'stream_open');
    const text = ofType(events, 'content_delta').find(
      (e) => e.attempt === 1 && e.iteration === 1 && e.kind === 'text' && e.text.length > 0,
    );
    expect(fired).toBeDefined();
    expect(text).toBeDefined();
    expect(text!.seq).toBeLessThan(fired!.seq);
    expect(text!.ts - open!.ts).toBeLessThan(5_000);
  });
});
