import { describe, expect, it } from 'vitest';
import { foldTotals, type RunEvent } from '@/lib/protocol';
import { launchRun } from './launch-run';
import { planFork } from './plan-fork';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/** The fold over everything before the terminate, and what the terminate says. */
function agree(events: RunEvent[]): void {
  const end = terminateOf(events);
  const folded = foldTotals(events.filter((e) => e.event !== 'terminate'));
  expect({
    input_tokens: end.input_tokens,
    output_tokens: end.output_tokens,
    usd_so_far: end.usd_so_far,
  }).toEqual({
    input_tokens: folded.inputTokens,
    output_tokens: folded.outputTokens,
    usd_so_far: folded.usd,
  });
}

// The engine keeps its own accounting (it writes each llm_call's cost so far); the log's fold
// must come to the same totals, or the runs list, the run page and a comparison disagree.
describe('the engine and the one fold agree on a real run', () => {
  it.each(['sim-anthropic', 'sim-openai'] as const)(
    '%s: with retried 529s, a background title call and tools',
    async (vendor) => {
      const events = await runToEnd({
        provider: { vendor },
        faults: {
          rules: [
            {
              id: 'o',
              enabled: true,
              when: { kind: 'requests', numbers: [2, 3] },
              action: { type: 'http_error', status: 529 },
            },
          ],
          tools: [],
        },
      });
      expect(ofType(events, 'retry_scheduled').length).toBeGreaterThan(0);
      expect(ofType(events, 'llm_call').length).toBeGreaterThan(2);
      agree(events);
    },
  );

  it('when the run is aborted mid-run', async () => {
    const events = await runToEnd(
      {},
      { onEvent: (event, control) => event.event === 'tool_call' && control({ action: 'abort' }) },
    );
    expect(terminateOf(events).reason).toBe('aborted');
    expect(ofType(events, 'llm_call').length).toBeGreaterThan(0);
    agree(events);
  });

  it('when the loop dies with an internal error after model calls', async () => {
    let calls = 0;
    const events = await runToEnd(
      {},
      {
        onEvent: (event) => {
          if (event.event === 'llm_call' && ++calls === 2) throw new Error('a sink that broke');
        },
      },
    );
    expect(terminateOf(events).reason).toBe('internal_error');
    expect(calls).toBeGreaterThanOrEqual(2);
    agree(events);
  });

  it('on a fork: the copied turns (their calls in the child log) and the new ones', async () => {
    const parent = await runToEnd({ seed: 7 });
    const start = ofType(parent, 'run_start')[0]!;
    const plan = planFork({
      spec: { runId: 'parent', atTurn: 2, provider: 'sim-openai' },
      parent: { config: start.config, running: false },
      events: parent,
    });
    if (!plan.ok) throw new Error(plan.problems.join('; '));
    const child: RunEvent[] = [];
    await launchRun({ runId: 'child', config: plan.config, fork: plan.fork, onEvent: (e) => child.push(e) })
      .done;
    const inherited = ofType(child, 'forked_from')[0]!.inherited;
    const copied = foldTotals(
      child.slice(
        0,
        child.findIndex((e) => e.event === 'forked_from') +
          1 +
          ofType(child, 'forked_from')[0]!.copied_events,
      ),
    );
    expect({
      usd: inherited.usd,
      input_tokens: inherited.input_tokens,
      output_tokens: inherited.output_tokens,
    }).toEqual({
      usd: copied.usd,
      input_tokens: copied.inputTokens,
      output_tokens: copied.outputTokens,
    });
    agree(child);
  });
});
