import { afterEach, describe, expect, it, vi } from 'vitest';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { checkClock } from '@/lib/tools/check/run-sandboxed';
import { BACKSTOP_RETRIES } from '@/lib/tools/check/sandbox-limits';
import { runNodeTests } from '@/lib/tools/check/run-node-tests';
import { fixFailingTest } from '@/lib/tools/scenarios/fix-failing-test';

/**
 * A run whose check the machine never gives the CPU to finish ends with an infrastructure
 * error, never with a trajectory the machine's speed decided. The scenario's check is the real
 * one, in the real sandbox, with a short wall-clock backstop; each child is stopped (SIGSTOP) as
 * its request is sent, which is what an overloaded machine does to it, only all the way.
 */
describe.runIf(checkClock() === 'cpu')('a run on a machine too busy to finish its check', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('ends host_overloaded at the first starved check, and the verdict is not checkable', async () => {
    const children: number[] = [];
    vi.spyOn(fixFailingTest, 'check').mockImplementation((workspace, { entries, ...options } = {}) =>
      runNodeTests({
        workspace,
        entries: [...(entries ?? fixFailingTest.tests)],
        ...options,
        limits: { timeMs: 1_000, graceMs: 500, backstopMs: 600 },
        onChild: (pid) => {
          children.push(pid);
          process.kill(pid, 'SIGSTOP');
        },
      }),
    );
    const events = await runToEnd({ seed: 42 });
    const checks = ofType(events, 'tool_call').filter((c) => c.tool === 'run_check');
    // The first run_check was starved on every try: the run goes no further.
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ is_error: true });
    expect(checks[0]!.result).toContain('the machine is overloaded');
    const after = events.slice(events.indexOf(checks[0]!) + 1);
    expect(after.map((e) => e.event)).toEqual(['task_verdict', 'terminate']);
    expect(terminateOf(events)).toMatchObject({ reason: 'host_overloaded', complete: false });
    expect(terminateOf(events).message).toMatch(
      new RegExp(
        `^run_check could not finish: Tests not finished: the machine is overloaded\\..* on each of ${1 + BACKSTOP_RETRIES} tries`,
      ),
    );
    const verdict = ofType(events, 'task_verdict')[0];
    expect(verdict).toMatchObject({ verdict: 'not_checkable' });
    expect(verdict?.detail).toMatch(
      /^the check was stopped \(host overloaded\): Tests not finished: the machine is overloaded/,
    );
    // run_check's tries and the verdict's, each in a fresh child.
    expect(new Set(children).size).toBe(2 * (1 + BACKSTOP_RETRIES));
  });
});
