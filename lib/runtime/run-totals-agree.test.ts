import { describe, expect, it } from 'vitest';
import { foldTotals, type RunEvent } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/** The fold over everything before the terminate, and what the terminate says. */
function agree(events: RunEvent[]): void {
  const end = terminateOf(events);
  const folded = foldTotals(events.filter((e) => e.event !== 'terminate'));
  expect({ input_tokens: end.input_tokens, output_tokens: end.output_tokens, usd_so_far: end.usd_so_far }).toEqual({
    input_tokens: folded.inputTokens,
    output_tokens: folded.outputTokens,
    usd_so_far: folded.usd,
  });
}

// The engine keeps its own accounting (it writes each llm_call's cost so far); the log's fold
// must come to the same totals, or the runs list, the run page and a comparison disagree.
describe('the engine and the one fold agree on a real run', () => {
  it.each(['sim-anthropic', 'sim-openai'] as const)('%s: with retried 529s, a background title call and tools', async (vendor) => {
    const events = await runToEnd({
      provider: { vendor },
      faults: { rules: [{ id: 'o', enabled: true, when: { kind: 'requests', numbers: [2, 3] }, action: { type: 'http_error', status: 529 } }], tools: [] },
    });
    expect(ofType(events, 'retry_scheduled').length).toBeGreaterThan(0);
    expect(ofType(events, 'llm_call').length).toBeGreaterThan(2);
    agree(events);
  });

  it('when the run is aborted mid-run', async () => {
    const events = await runToEnd({}, { onEvent: (event, control) => event.event === 'tool_call' && control({ action: 'abort' }) });
    expect(terminateOf(events).reason).toBe('aborted');
    expect(ofType(events, 'llm_call').length).toBeGreaterThan(0);
    agree(events);
  });

  it('when the loop dies with an internal error after model calls', async () => {
    let calls = 0;
    const events = await runToEnd({}, {
      onEvent: (event) => {
        if (event.event === 'llm_call' && ++calls === 2) throw new Error('a sink that broke');
      },
    });
    expect(terminateOf(events).reason).toBe('internal_error');
    expect(calls).toBeGreaterThanOrEqual(2);
    agree(events);
  });
});
