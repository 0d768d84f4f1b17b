import { describe, expect, it } from 'vitest';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/** The output cap on the simulated vendors, through the real SDKs (virtual clock). */
describe.each(['sim-anthropic', 'sim-openai'] as const)('output cap recovery on %s', (vendor) => {
  it('s11 + long-output: the cap is escalated, the answer continued, and the model finishes', async () => {
    const events = await runToEnd({
      provider: { vendor },
      preset: 's11',
      policy: 'long-output',
      maxOutputTokens: 300,
      recovery: { output: { escalatedMaxTokens: 600 } },
    });
    const fg = ofType(events, 'model_request').filter((r) => !r.background);
    expect(fg.map((r) => r.max_tokens)).toEqual([300, 600, 600, 600, 600]);
    const steps = ofType(events, 'output_recovery');
    expect(steps.map((s) => [s.action, s.continuation ?? null])).toEqual([
      ['escalate', null],
      ['continue', 1],
      ['continue', 2],
      ['continue', 3],
    ]);
    // The escalated request carries the same messages: the cut output was dropped.
    expect(fg[1]!.message_count).toBe(fg[0]!.message_count);
    expect(fg[2]!.message_count).toBe(fg[1]!.message_count + 2);
    const cut = ofType(events, 'llm_call')
      .filter((c) => !c.background)
      .slice(0, 4);
    expect(cut.map((c) => c.stop_reason)).toEqual(['max_tokens', 'max_tokens', 'max_tokens', 'max_tokens']);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('with one continuation allowed the run ends at the cap and says so', async () => {
    const events = await runToEnd({
      provider: { vendor },
      preset: 's11',
      policy: 'long-output',
      maxOutputTokens: 300,
      recovery: { output: { escalatedMaxTokens: 600, maxContinuations: 1 } },
    });
    expect(ofType(events, 'output_recovery').map((s) => s.action)).toEqual([
      'escalate',
      'continue',
      'exhausted',
    ]);
    expect(terminateOf(events)).toMatchObject({
      reason: 'max_tokens',
      complete: false,
      message: 'still truncated after 1 continuation',
    });
  });
});
