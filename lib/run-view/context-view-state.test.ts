import { describe, expect, it } from 'vitest';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';
import { reduceRunEvent } from './reduce-run-event';
import { initialRunViewState, type RunViewState } from './run-view-state';

describe('the context view folded from a run', () => {
  it('one gauge sample per request copy, the vendor report on the copy it answered, the overflow marked recovered, stubs remembered', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
      scenario: 'growing-context',
      recovery: { compaction: { proactive: false } },
    });
    const view = events.reduce<RunViewState>((s, e) => reduceRunEvent(s, e), initialRunViewState());
    const { samples, overflows, steps, stubSince } = view.context;
    expect(samples).toHaveLength(ofType(events, 'context_sent').length);
    // The refused copy has no report; the resent copy of the same turn has the vendor's count.
    const step = overflows[0]!.iteration;
    const ofStep = samples.filter((s) => s.iteration === step);
    expect(ofStep.map((s) => s.reported === undefined)).toEqual([true, false]);
    expect(ofStep[1]!.reported).toBe(
      ofType(events, 'llm_call').find((c) => c.iteration === step && !c.background)!.input_tokens,
    );
    // The title call at the end (a background call) did not overwrite the last report.
    const lastForeground = ofType(events, 'llm_call')
      .filter((c) => !c.background)
      .at(-1)!;
    expect(samples.at(-1)!.reported).toBe(lastForeground.input_tokens);
    expect(overflows[0]!.recovered).toBeDefined();
    expect(steps.map((s) => s.step)).toEqual(['micro_compact']);
    for (const stub of steps[0]!.stubbed) expect(stubSince[stub.callId]).toBe(step);
  });
});
