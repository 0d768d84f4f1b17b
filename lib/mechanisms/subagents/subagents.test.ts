import { describe, expect, it } from 'vitest';
import type { EventOf, FaultPlan, RecoveryOverrides, RunEvent } from '@/lib/protocol';
import { firstLogDifference } from '@/lib/testing/deterministic-log';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { runTotals } from '@/lib/compare/run-totals';
import { totalsDiff } from '@/lib/compare/totals-diff';
import { nestedTotals } from '@/lib/run-view/nested-totals';
import { reduceRunEvent } from '@/lib/run-view/reduce-run-event';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { subagentsLesson } from './lesson';

/** A run of the fix-failing-test scenario whose model delegates three survey tasks at once. */
function run(
  options: {
    recovery?: RecoveryOverrides;
    faults?: Partial<FaultPlan>;
    maxAttempts?: number;
    seed?: number;
  } = {},
): Promise<RunEvent[]> {
  return runToEnd({
    preset: 'codesmith',
    seed: options.seed ?? 3,
    recovery: { ...options.recovery, tools: { delegate: true, ...options.recovery?.tools } },
    ...(options.maxAttempts ? { budgets: { maxAttempts: options.maxAttempts } } : {}),
    faults: { rules: [], tools: [], ...options.faults },
  });
}

const ends = (log: RunEvent[]) => ofType(log, 'subagent_end');
const inner = (e: EventOf<'subagent_event'>) => e.inner as unknown as RunEvent;

describe('sub-agents through the loop, the real SDK and the simulated vendor', () => {
  it("writes each child's events into the run's one log, tagged with the child and the call, and the same seed gives the same log", async () => {
    const log = await run();
    const again = await run();
    expect(firstLogDifference(log, again)).toBeUndefined();
    const starts = ofType(log, 'subagent_start');
    expect(starts.map((s) => s.child)).toEqual(['c1', 'c2', 'c3']);
    // Children are numbered in call order; each one's seed is keyed by its call: the same run, the same key.
    const started = ofType(log, 'tool_start').filter((c) => c.tool === 'delegate');
    expect(starts.map((s) => s.call_id)).toEqual(started.map((c) => c.call_id));
    expect(starts.map((s) => s.seed_key)).toEqual(started.map((c) => `subagent:${c.call_id}:1`));
    const calls = ofType(log, 'tool_call').filter((c) => c.tool === 'delegate');
    for (const e of ofType(log, 'subagent_event')) {
      const start = starts.find((s) => s.child === e.child)!;
      expect(e.call_id).toBe(start.call_id);
      expect(e.seq).toBeGreaterThan(start.seq);
    }
    // The children ran side by side: their events interleave in the log.
    const order = ofType(log, 'subagent_event').map((e) => e.child);
    expect(order.indexOf('c2')).toBeLessThan(order.lastIndexOf('c1'));
    expect(ends(log).map((e) => [e.child, e.outcome, e.next])).toEqual([
      ['c1', 'answered', 'accept'],
      ['c3', 'answered', 'accept'],
      ['c2', 'answered', 'accept'],
    ]);
    // Each child's answer is its delegate call's result.
    for (const end of ends(log)) {
      const answer = ofType(log, 'subagent_event')
        .filter((e) => e.child === end.child && inner(e).event === 'llm_call')
        .map((e) => inner(e) as EventOf<'llm_call'>)
        .at(-1)!;
      const text = answer.message!.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      expect(calls.find((c) => c.call_id === end.call_id)!.result).toBe(text);
    }
    // The run's own totals are the parent's calls; each child's cost is its end's.
    const end = terminateOf(log);
    expect(end).toMatchObject({ reason: 'end_turn', complete: true });
    const parentUsd = ofType(log, 'llm_call').reduce((sum, c) => sum + (c.usd ?? 0), 0);
    expect(end.usd_so_far).toBeCloseTo(parentUsd, 5);
    for (const e of ends(log)) {
      const childEnd = ofType(log, 'subagent_event')
        .filter((x) => x.child === e.child)
        .map(inner)
        .find((x) => x.event === 'terminate') as EventOf<'terminate'>;
      expect(e.usd).toBe(childEnd.usd_so_far);
      expect(e.input_tokens).toBe(childEnd.input_tokens);
    }
    expect(ofType(log, 'task_verdict')).toMatchObject([{ verdict: 'done' }]);

    // The run view nests each child's turns under the call that started it, and counts their cost apart.
    const view = log.reduce(reduceRunEvent, initialRunViewState());
    const turn1 = view.turns.find((t) => t.iteration === 1)!;
    expect(turn1.nested!.map((n) => [n.id, n.callId, n.run.turns.length, n.end?.outcome])).toEqual(
      starts.map((s) => [s.child, s.call_id, 3, 'answered']),
    );
    expect(view.turns.filter((t) => t.iteration > 1 && t.nested)).toEqual([]);
    const nested = nestedTotals(view);
    expect(nested.runs).toBe(3);
    expect(nested.usd).toBeCloseTo(
      ends(log).reduce((sum, e) => sum + e.usd, 0),
      5,
    );
    expect(nested.requests).toBe(ends(log).at(-1)!.children_requests);
    expect(view.totals.usd).toBeCloseTo(end.usd_so_far, 5);
  }, 60_000);

  it("the run's cost budget holds the run and its sub-agents together: children stop when the tree has spent it, and the run's end says who spent what", async () => {
    const maxCostUsd = 0.01;
    const log = await runToEnd({
      preset: 'codesmith',
      seed: 3,
      recovery: { tools: { delegate: true } },
      budgets: { maxCostUsd },
      faults: { rules: [], tools: [] },
    });
    const own = ofType(log, 'llm_call').map((c) => c.usd ?? 0);
    const children = ofType(log, 'subagent_event')
      .map(inner)
      .flatMap((e) => (e.event === 'llm_call' ? [e.usd ?? 0] : []));
    const tree = [...own, ...children].reduce((a, b) => a + b, 0);
    // Past the budget by at most the calls in flight when it was reached: one for each child running side by side.
    const starts = ofType(log, 'subagent_start');
    expect(starts.length).toBeGreaterThan(1);
    expect(tree).toBeGreaterThan(maxCostUsd);
    expect(tree).toBeLessThanOrEqual(maxCostUsd + starts.length * Math.max(...own, ...children));
    // Each child stopped on the shared budget, and the run ends naming the split.
    expect(ends(log).map((e) => e.reason)).toEqual(starts.map(() => 'cost_budget'));
    const end = terminateOf(log);
    expect(end.reason).toBe('cost_budget');
    const ownUsd = own.reduce((a, b) => a + b, 0);
    expect(end.message).toBe(
      `spent $${tree.toFixed(4)} of the $${maxCostUsd} budget ($${ownUsd.toFixed(4)} by this loop, $${(tree - ownUsd).toFixed(4)} by the loops it shares the budget with)`,
    );
  }, 60_000);

  it("a child whose own model is down falls back to the run's model, the parent saying so", async () => {
    const log = await run({
      recovery: { tools: { subagentModel: 'claude-sim-haiku' } },
      faults: {
        rules: [
          {
            id: 'down',
            enabled: true,
            model: 'claude-sim-haiku',
            when: { kind: 'always' },
            action: { type: 'http_error', status: 503 },
          },
        ],
      },
    });
    const first = ends(log).filter((e) => e.try === 1);
    expect(first.map((e) => [e.outcome, e.next, e.model])).toEqual(
      Array(3).fill(['vendor_failed', 'fallback', 'claude-sim-haiku']),
    );
    expect(first[0]!.why).toContain("it runs again on the run's own model, claude-sim-sonnet");
    const second = ofType(log, 'subagent_start').filter((s) => s.try === 2);
    expect(second.map((s) => s.model)).toEqual(Array(3).fill('claude-sim-sonnet'));
    expect(
      ends(log)
        .filter((e) => e.try === 2)
        .map((e) => e.next),
    ).toEqual(['accept', 'accept', 'accept']);
    expect(terminateOf(log)).toMatchObject({ reason: 'end_turn' });
  }, 60_000);

  it("a child whose own attempt budget runs out on its failing model is the vendor's failure: it falls back, not given up", async () => {
    // Its ladder would try 4 times; its own account allows 3, all of them failing on its model.
    const log = await run({
      recovery: { tools: { subagentModel: 'claude-sim-haiku', subagentAttempts: 3 } },
      faults: {
        rules: [
          {
            id: 'down',
            enabled: true,
            model: 'claude-sim-haiku',
            when: { kind: 'always' },
            action: { type: 'http_error', status: 503 },
          },
        ],
      },
    });
    const first = ends(log).filter((e) => e.try === 1);
    expect(first.map((e) => [e.outcome, e.next, e.reason, e.requests])).toEqual(
      Array(3).fill(['vendor_failed', 'fallback', 'attempt_budget', 3]),
    );
    expect(first[0]!.why).toContain('until its attempt budget ran out');
    expect(
      ends(log)
        .filter((e) => e.try === 2)
        .map((e) => [e.model, e.next]),
    ).toEqual(Array(3).fill(['claude-sim-sonnet', 'accept']));
    expect(terminateOf(log)).toMatchObject({ reason: 'end_turn' });
  }, 60_000);

  it('a child whose vendor fails every attempt runs again with a fresh seed, then the parent gives up once the retries are spent', async () => {
    // The parent's first request goes through; the next twelve (every child's four attempts) fail.
    const numbers = Array.from({ length: 12 }, (_, k) => k + 2);
    const failing: Partial<FaultPlan> = {
      rules: [
        {
          id: 'down',
          enabled: true,
          when: { kind: 'requests', numbers },
          action: { type: 'http_error', status: 503 },
        },
      ],
    };
    const log = await run({ faults: failing });
    const retried = ends(log).filter((e) => e.next === 'retry');
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.every((e) => e.try === 1 && e.outcome === 'vendor_failed')).toBe(true);
    expect(retried[0]!.why).toContain('it runs again with a fresh seed (retry 1 of 1)');
    for (const e of retried) {
      const again = ofType(log, 'subagent_start').find((s) => s.child === e.child && s.try === 2)!;
      expect(again.seed_key).toBe(`subagent:${e.call_id}:2`);
      expect(ends(log).find((x) => x.child === e.child && x.try === 2)).toMatchObject({ next: 'accept' });
    }

    const off = await run({ faults: failing, recovery: { tools: { subagentRetries: 0 } } });
    const given = ends(off).filter((e) => e.next === 'give_up');
    // The children the first run tried again, and any whose tries the retries no longer take the failures from.
    expect(retried.every((e) => given.some((g) => g.child === e.child))).toBe(true);
    expect(ends(off).every((e) => e.try === 1)).toBe(true);
    expect(given[0]!.why).toContain('child retries are off');
    const results = ofType(off, 'tool_call').filter((c) => given.some((e) => e.call_id === c.call_id));
    expect(results.every((c) => c.is_error && c.result!.startsWith('Sub-agent c'))).toBe(true);
  }, 60_000);

  it('a child that loops is blocked by its loop guard and given up on; one that overruns spends its turns', async () => {
    const log = await run({
      faults: {
        subagents: [
          { id: 'loop', enabled: true, kind: 'loops', child: 2 },
          { id: 'long', enabled: true, kind: 'overruns', child: 3 },
        ],
      },
    });
    const byChild = Object.fromEntries(ends(log).map((e) => [e.child, e]));
    expect(byChild.c1).toMatchObject({ outcome: 'answered', next: 'accept' });
    expect(byChild.c2).toMatchObject({ outcome: 'looped', next: 'give_up', reason: 'max_iterations' });
    expect(byChild.c2!.why).toMatch(/its loop guard blocked \d repeats/);
    expect(byChild.c3).toMatchObject({ outcome: 'budget_spent', next: 'give_up', reason: 'max_iterations' });
    const turns = ofType(log, 'subagent_event').filter(
      (e) => e.child === 'c3' && inner(e).event === 'iteration_start',
    );
    expect(turns).toHaveLength(6);
    expect(terminateOf(log)).toMatchObject({ reason: 'end_turn' });
  }, 60_000);

  it("many children on one rate limit: each retries on its own account, and shared they spend the run's", async () => {
    const { config } = subagentsLesson;
    const on = await runToEnd({ ...config });
    const parentRequests = ofType(on, 'model_request').length;
    const childRequests = ends(on).at(-1)!.children_requests;
    expect(ends(on).map((e) => e.requests)).toEqual([6, 6, 6]);
    expect(childRequests).toBe(18);
    // Tree-wide the run made more requests than its own budget allows it alone.
    expect(parentRequests + childRequests).toBeGreaterThan(config.budgets!.maxAttempts!);
    expect(terminateOf(on)).toMatchObject({ reason: 'end_turn', complete: true });

    const off = await runToEnd({
      ...config,
      recovery: { tools: { ...config.recovery!.tools, subagentSharesAttempts: true, subagentRetries: 0 } },
    });
    expect(terminateOf(off)).toMatchObject({ reason: 'attempt_budget', complete: false });
    // A comparison shows the children's spend on lines of its own, beside the runs' own cost.
    const rows = totalsDiff(runTotals(on), runTotals(off));
    const line = (id: string) => rows.find((r) => r.id === id)!;
    expect(line('subagentRequests')).toMatchObject({ a: 18, b: 18, better: null });
    const childUsd = ends(on).reduce((sum, e) => sum + e.usd, 0);
    expect(line('subagentUsd').a).toBeCloseTo(childUsd, 9);
    expect(line('subagentInputTokens').a).toBe(ends(on).reduce((sum, e) => sum + e.input_tokens, 0));
    expect(line('usd').a).toBeCloseTo(terminateOf(on).usd_so_far, 9);
    // Shared, a child's requests are numbered in the run's own count.
    const childNumbers = ofType(off, 'subagent_event')
      .map(inner)
      .filter((e): e is EventOf<'model_request'> => e.event === 'model_request')
      .map((e) => e.request_no);
    expect(Math.max(...childNumbers)).toBeGreaterThan(6);
  }, 60_000);
});
