import { describe, expect, it } from 'vitest';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { listScenarios } from '@/lib/tools/scenarios';

/** The task verdict: the scenario's check on the final workspace, apart from how the loop ended. */
describe('task verdict', () => {
  it('a run that fixed the bug is judged done, just before terminate', async () => {
    const events = await runToEnd({});
    const verdicts = ofType(events, 'task_verdict');
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({ verdict: 'done', check: 'test/slugify.test.js' });
    expect(events.at(-2)?.event).toBe('task_verdict');
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it("every scenario's simulated model makes the real fix, and the verdict finds every shipped test by name and every hidden test passing", async () => {
    for (const scenario of listScenarios()) {
      // The course preset truncates long tool output (huge-log's log overflows the default window
      // whole); long-project reads its 23 region files one by one, past 30 iterations.
      const events = await runToEnd({
        scenario: scenario.id,
        preset: 'course',
        budgets: { maxIterations: 60 },
      });
      expect(terminateOf(events), scenario.id).toMatchObject({ reason: 'end_turn' });
      const verdict = ofType(events, 'task_verdict')[0];
      const hidden = Object.values(scenario.hidden.names).flat().length;
      expect(verdict, scenario.id).toMatchObject({
        verdict: 'done',
        tests_missing: [],
        hidden_tests: hidden,
        hidden_failed: [],
      });
      expect(verdict?.detail, scenario.id).toContain(
        `Hidden tests (run by the verdict only): all ${hidden} passed.`,
      );
    }
  });

  it('a model that gives up ends its turn cleanly, but the task is not done', async () => {
    // Every edit throws: the bug cannot be fixed, and the simulated model says so and stops.
    const events = await runToEnd({
      faults: { rules: [], tools: [{ id: 'e', tool: 'edit_file', enabled: true, kind: 'throw' }] },
    });
    const answer = ofType(events, 'llm_call')
      .filter((c) => !c.background)
      .at(-1);
    expect(JSON.stringify(answer?.message)).toMatch(/could not finish the task/);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    const verdict = ofType(events, 'task_verdict')[0];
    expect(verdict).toMatchObject({ verdict: 'not_done' });
    expect(verdict?.detail).toMatch(/2 failed/);
    expect(verdict).toMatchObject({ tests_missing: [], hidden_tests: 6 });
    expect(verdict?.hidden_failed).toContain('collapses runs of spaces into one hyphen');
  });

  it('a run stopped before the work is judged too (the log says the task is not done)', async () => {
    const events = await runToEnd({ budgets: { maxIterations: 1 } });
    expect(terminateOf(events).reason).toBe('max_iterations');
    expect(ofType(events, 'task_verdict')[0]?.verdict).toBe('not_done');
  });

  it('a replaced task is not checkable by the scenario check', async () => {
    const events = await runToEnd({ task: 'Summarize what this project does in one sentence.' });
    const verdict = ofType(events, 'task_verdict')[0];
    expect(verdict).toMatchObject({ verdict: 'not_checkable' });
    expect(verdict?.detail).toMatch(/task was replaced/);
  });
});

/**
 * A verdict the run cannot game. The model here rewrites the failing test to one that always
 * holds (the rewrite-test policy): run_check says PASS, the bug is still there.
 */
describe('task verdict against a rewritten test', () => {
  it('runs the tests as the scenario shipped them: run_check passes, the task is not done, and the verdict names the edited test', async () => {
    const events = await runToEnd({ policy: 'rewrite-test' });
    const checks = ofType(events, 'tool_call').filter((c) => c.tool === 'run_check');
    expect(checks.map((c) => c.result?.split('\n')[0])).toEqual(['FAIL', 'PASS']);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
    const verdict = ofType(events, 'task_verdict')[0];
    expect(verdict).toMatchObject({
      verdict: 'not_done',
      tests_run: 'shipped',
      tests_edited: ['test/slugify.test.js'],
    });
    expect(verdict?.detail).toMatch(/2 passed, 2 failed/);
  });

  it('a run that fixed the code and left the tests alone says so', async () => {
    const verdict = ofType(await runToEnd({}), 'task_verdict')[0];
    expect(verdict).toMatchObject({ verdict: 'done', tests_run: 'shipped', tests_edited: [] });
  });

  it("with the verdict set to the workspace's own tests, the rewrite is judged done (what the shipped tests prevent)", async () => {
    const verdict = ofType(
      await runToEnd({ policy: 'rewrite-test', verdict: { tests: 'workspace' } }),
      'task_verdict',
    )[0];
    expect(verdict).toMatchObject({
      verdict: 'done',
      tests_run: 'workspace',
      tests_edited: ['test/slugify.test.js'],
    });
  });
});
