import { describe, expect, it } from 'vitest';
import { setup } from './executor.testkit';

const SAFE_ONLY = { loopGuard: false };

describe('executor: safe executor rules', () => {
  it('disables a tool when its failure budget (3) is spent, and answers later calls without running', async () => {
    const t = setup({ config: SAFE_ONLY });
    for (const n of [1, 2]) await t.call('probe', { n, fail: true });
    expect(t.executor.budgets().probe).toBe(1);
    const third = await t.call('probe', { n: 3, fail: true });
    expect(third.result.content).toMatch(
      /probe has now failed 3 times and is disabled for the rest of this run/,
    );
    expect(t.of('tool_guard')).toEqual([
      {
        event: 'tool_guard',
        iteration: 1,
        tool: 'probe',
        kind: 'disabled',
        reason: 'probe failed 3 times (budget 3)',
        budget_left: 0,
      },
    ]);
    const later = await t.call('probe', { n: 4 });
    expect(later.result).toMatchObject({
      isError: true,
      content:
        'Error: probe is disabled for the rest of this run after 3 failures. Use a different tool or approach.',
    });
    expect(t.probe.runs).toBe(3);
    expect(t.of('tool_call').at(-1)).toMatchObject({ status: 'disabled', is_error: true });
    expect(t.executor.disabledTools()).toEqual(['probe']);
    expect(t.executor.budgets()).toMatchObject({ probe: 0, read_file: 3 });
  });

  it('every call of a tool reports the failure budget left after it, so the count shown is never stale', async () => {
    const t = setup({ config: SAFE_ONLY });
    await t.call('probe', { n: 1 });
    await t.call('probe', { n: 2, fail: true });
    await t.call('probe', { n: 3, fail: true });
    expect(t.of('tool_call').map((c) => c.budget_left)).toEqual([3, 2, 1]);
  });

  it('a budget of one reads "failed 1 time", not "1 times"', async () => {
    const t = setup({ config: { ...SAFE_ONLY, failureBudget: 1 } });
    const first = await t.call('probe', { n: 1, fail: true });
    expect(first.result.content).toMatch(/probe has now failed 1 time and is disabled/);
    expect(t.of('tool_guard')[0]).toMatchObject({ reason: 'probe failed 1 time (budget 1)' });
  });

  it('counts a tool error result (a missing file) against the budget', async () => {
    const t = setup({ config: SAFE_ONLY });
    for (const path of ['a.js', 'b.js', 'c.js']) await t.call('read_file', { path });
    expect(t.executor.disabledTools()).toEqual(['read_file']);
  });

  it('short-circuits an exact repeat of a failed call (key order ignored) without running it', async () => {
    const t = setup({ config: SAFE_ONLY });
    await t.call('probe', { a: 1, b: 2, fail: true });
    const again = await t.callRaw('probe', '{"fail": true, "b": 2, "a": 1}');
    expect(again.result).toMatchObject({
      isError: true,
      content: expect.stringMatching(
        /^Error: you already made this exact probe call and it failed; it was not run again/,
      ),
    });
    expect(t.probe.runs).toBe(1);
    expect(t.of('tool_guard')).toEqual([
      {
        event: 'tool_guard',
        iteration: 1,
        tool: 'probe',
        kind: 'short_circuit',
        reason: 'exact repeat of a failed probe call',
        budget_left: 2,
      },
    ]);
    expect(t.of('tool_call').map((e) => e.status)).toEqual(['error', 'short_circuit']);
    // A different call is not a repeat.
    await t.call('probe', { a: 1, b: 3, fail: true });
    expect(t.probe.runs).toBe(2);
  });

  it('lets a failed call run again once the workspace has changed', async () => {
    const t = setup({ config: SAFE_ONLY });
    expect((await t.call('read_file', { path: 'notes.md' })).result.isError).toBe(true);
    await t.call('write_file', { path: 'notes.md', content: 'hi\n' });
    const again = await t.call('read_file', { path: 'notes.md' });
    expect(again.result).toMatchObject({ isError: false, content: 'notes.md — lines 1–1 of 1\n1\thi' });
  });

  it('does not short-circuit when shortCircuitRepeats is off', async () => {
    const t = setup({ config: { ...SAFE_ONLY, shortCircuitRepeats: false } });
    await t.call('probe', { fail: true });
    await t.call('probe', { fail: true });
    expect(t.probe.runs).toBe(2);
  });

  it('times a slow tool out on the clock and stops it', async () => {
    const t = setup({
      config: { timeoutMs: 30_000 },
      faults: [{ id: 's', tool: 'list_files', enabled: true, kind: 'slow', delayMs: 60_000 }],
    });
    const { result } = await t.call('list_files');
    expect(result.content).toMatch(/^Error: list_files timed out after 30000 ms and was stopped\./);
    expect(t.of('tool_call')[0]).toMatchObject({ status: 'timeout', is_error: true, latency_ms: 30_000 });
    expect(t.clock.now()).toBe(30_000);
    expect(t.clock.pending).toBe(0);
    expect(t.executor.budgets().list_files).toBe(2);
  });

  it('naive (safe executor off): a throw is still an is_error result, with no budget, short-circuit or timeout', async () => {
    const faults = [{ id: 'boom', tool: 'list_files', enabled: true, kind: 'throw' as const }];
    const t = setup({ config: { safeExecutor: false, loopGuard: false, truncateChars: 0 }, faults });
    for (let i = 0; i < 5; i++) {
      const { result } = await t.call('list_files');
      expect(result).toMatchObject({
        isError: true,
        content: 'InjectedToolError: list_files crashed (tool fault "boom")',
      });
    }
    expect(t.of('tool_call').every((e) => e.status === 'error')).toBe(true);
    expect(t.of('tool_guard')).toEqual([]);
    expect(t.executor.disabledTools()).toEqual([]);
    t.setFaults([{ id: 's', tool: '*', enabled: true, kind: 'slow', delayMs: 60_000 }]);
    await t.call('list_files');
    expect(t.of('tool_call').at(-1)).toMatchObject({ status: 'ok', latency_ms: 60_000 });
  });

  it('answers a call aborted mid-run with an error instead of throwing', async () => {
    const t = setup({ faults: [{ id: 's', tool: '*', enabled: true, kind: 'slow', delayMs: 10_000 }] });
    const abort = new AbortController();
    const pending = t.call('list_files', {}, { signal: abort.signal });
    setImmediate(() => abort.abort());
    const { result } = await pending;
    expect(result).toMatchObject({
      isError: true,
      content: 'Error: the run was aborted while list_files was running.',
    });
  });
});
