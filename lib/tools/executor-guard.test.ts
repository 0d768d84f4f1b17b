import { describe, expect, it } from 'vitest';
import { setup } from './executor.testkit';

const GUARD_ONLY = { safeExecutor: false, shortCircuitRepeats: false };

describe('executor: loop guard', () => {
  it('blocks the 3rd identical call, while reads of other ranges still run', async () => {
    const t = setup({ config: GUARD_ONLY });
    const read = { path: 'src/slugify.js', offset: 1, limit: 5 };
    await t.call('read_file', read);
    await t.call('read_file', { limit: 5, offset: 1, path: 'src/slugify.js' });
    const third = await t.call('read_file', read);
    expect(third.result).toMatchObject({
      isError: true,
      content: expect.stringMatching(
        /^Error: blocked — this is call #3 of read_file with exactly the same arguments/,
      ),
    });
    expect(t.of('tool_guard')).toEqual([
      {
        event: 'tool_guard',
        iteration: 1,
        tool: 'read_file',
        kind: 'blocked',
        reason: 'call #3 of read_file with the same arguments',
      },
    ]);
    const other = await t.call('read_file', { path: 'src/slugify.js', offset: 6, limit: 5 });
    expect(other.result.isError).toBe(false);
    expect(t.of('tool_call').map((e) => e.status)).toEqual(['ok', 'ok', 'blocked', 'ok']);
  });

  it('counts identical calls afresh after the workspace changes (re-running a check after an edit)', async () => {
    const t = setup({ config: GUARD_ONLY });
    await t.call('run_check');
    await t.call('run_check');
    await t.call('edit_file', { path: 'README.md', old_string: '# tiny-blog', new_string: '# tiny blog' });
    const again = await t.call('run_check');
    expect(again.result.isError).toBe(false);
    expect(t.of('tool_guard')).toEqual([]);
  });

  it('warns from 3 consecutive failures and halts at 8', async () => {
    const t = setup({ config: GUARD_ONLY });
    const results = [];
    for (let n = 1; n <= 8; n++) results.push(await t.call('probe', { n, fail: true }));
    expect(results.slice(0, 2).every((r) => r.result.content === 'probe failed')).toBe(true);
    expect(results[2]?.result.content).toBe(
      'Warning: probe has failed 3 times in a row; the run stops at 8. Step back: re-read the errors, check names and arguments, or try a different tool.\n\nprobe failed',
    );
    expect(results.slice(0, 7).every((r) => r.halt === undefined)).toBe(true);
    expect(results[7]?.halt).toBe('probe failed 8 times in a row (halt at 8)');
    const guards = t.of('tool_guard');
    expect(guards.map((g) => [g.kind, g.consecutive_failures])).toEqual([
      ['warning', 3],
      ['warning', 4],
      ['warning', 5],
      ['warning', 6],
      ['warning', 7],
      ['halt', 8],
    ]);
    // The guard event comes before the call's own tool_call.
    expect(t.events.at(-2)).toMatchObject({ event: 'tool_guard', kind: 'halt' });
    expect(t.events.at(-1)).toMatchObject({ event: 'tool_call', status: 'error' });
  });

  it('resets the count on a success', async () => {
    const t = setup({ config: GUARD_ONLY });
    for (let n = 1; n <= 5; n++) await t.call('probe', { n, fail: true });
    await t.call('probe', { n: 0 });
    for (let n = 6; n <= 7; n++) await t.call('probe', { n, fail: true });
    expect(t.of('tool_guard').map((g) => g.consecutive_failures)).toEqual([3, 4, 5]);
  });

  it('counts per tool: another tool failing does not add to this one', async () => {
    const t = setup({ config: GUARD_ONLY });
    await t.call('probe', { n: 1, fail: true });
    await t.call('probe', { n: 2, fail: true });
    await t.call('read_file', { path: 'missing.js' });
    expect(t.of('tool_guard')).toEqual([]);
  });

  it('does nothing when the loop guard is off', async () => {
    const t = setup({ config: { ...GUARD_ONLY, loopGuard: false } });
    for (let n = 1; n <= 9; n++) {
      const out = await t.call('probe', { fail: true });
      expect(out.halt).toBeUndefined();
    }
    expect(t.probe.runs).toBe(9);
    expect(t.of('tool_guard')).toEqual([]);
  });
});
