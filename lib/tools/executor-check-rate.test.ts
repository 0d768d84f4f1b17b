import { describe, expect, it } from 'vitest';
import { setup } from './executor.testkit';

/** A model that edits and re-checks in a loop: each check follows a change, so the loop guard lets it through. */
async function editAndCheck(t: ReturnType<typeof setup>, n: number) {
  t.workspace.write('notes.txt', `edit ${n}`);
  return t.call('run_check');
}

describe('executor: check rate', () => {
  it('refuses the check past the rate without running it, says why and when the next may run, and runs it again once the window has moved', async () => {
    const t = setup({ config: { checkRateMax: 2, checkRateWindowMs: 60_000 } });
    await editAndCheck(t, 1);
    await t.clock.sleep(10_000);
    await editAndCheck(t, 2);
    await t.clock.sleep(5_000);
    const refused = await editAndCheck(t, 3);

    expect(refused.result.isError).toBe(true);
    expect(refused.result.content).toBe(
      'Error: run_check was not run: this run already ran it 2 times in the last 60 s of run time, the most it may. ' +
        'It can run again in 45 s of run time. Make the changes you need first, then check once.',
    );
    expect(t.of('tool_guard')).toEqual([
      {
        event: 'tool_guard',
        iteration: 1,
        tool: 'run_check',
        kind: 'rate_limited',
        reason: 'run_check ran 2 times in the last 60 s of run time (limit 2 per 60 s)',
        next: 'refused without running; run_check may run again at 60 s of run time (in 45 s)',
      },
    ]);
    const calls = t.of('tool_call');
    expect(calls.map((c) => c.status)).toEqual(['ok', 'ok', 'rate_limited']);
    // The two that ran are real check reports (the scenario's test fails as shipped); the refused one is not.
    expect(calls.slice(0, 2).map((c) => c.result?.split('\n')[0])).toEqual(['FAIL', 'FAIL']);
    expect(calls[2]!.latency_ms).toBe(0);

    // 45 s later the first check has left the window: the next one runs.
    await t.clock.sleep(45_000);
    const after = await editAndCheck(t, 4);
    expect(after.result.content.split('\n')[0]).toBe('FAIL');
    expect(t.of('tool_call').at(-1)!.status).toBe('ok');
  });

  it('with the rate off (0), every check runs', async () => {
    const t = setup({ config: { checkRateMax: 0 } });
    for (let n = 1; n <= 3; n++) await editAndCheck(t, n);
    expect(t.of('tool_call').map((c) => c.status)).toEqual(['ok', 'ok', 'ok']);
    expect(t.of('tool_guard')).toEqual([]);
  });

  it('counts only sandboxed checks: other tools are never rate limited', async () => {
    const t = setup({ config: { checkRateMax: 1, loopGuard: false } });
    for (let n = 0; n < 4; n++)
      await t.call('read_file', { path: 'src/slugify.js', offset: n + 1, limit: 1 });
    expect(t.of('tool_call').map((c) => c.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });
});
