import { describe, expect, it } from 'vitest';
import { createRandom, RealClock } from '@/lib/clock';
import { fixFailingTest } from '../scenarios/fix-failing-test';
import { createRunCheckTool } from '../tools/run-check';
import { createWorkspace } from '../workspace';
import { ASYNC_REJECTED_TEST, HOST_REALM_REWRITE, sourceWithHostRealmRewrite } from './forgeries.testkit';
import { runNodeTests } from './run-node-tests';

/**
 * A check's answer that the code under check tries to forge. Each attack is written as a
 * model would write it into the workspace; the source under test still has its bug (the regex
 * without /g), so two of the scenario's four tests fail and the check must say FAIL.
 */
const ENTRY = 'test/slugify.test.js';
const SHIPPED_TEST = fixFailingTest.files[ENTRY]!;

function workspaceWith(files: Record<string, string>) {
  return createWorkspace({ files: { ...fixFailingTest.files, ...files } });
}

async function runCheck(files: Record<string, string>) {
  const ctx = {
    workspace: workspaceWith(files),
    clock: new RealClock(1),
    random: createRandom(1),
    signal: new AbortController().signal,
  };
  return createRunCheckTool({ scenario: fixFailingTest }).run({}, ctx);
}

describe('a check report the workspace cannot forge', () => {
  it('a test file that reaches the check process realm through a rejected import() cannot turn FAIL into PASS', async () => {
    const result = await runCheck({ [ENTRY]: HOST_REALM_REWRITE + SHIPPED_TEST });
    expect(result.content).toMatch(/^FAIL\n/);
    expect(result.content).toContain('✗ joins every word, not just the first two');
    expect(result.content).toContain('2 passed, 3 failed');
    expect(result.content).toContain('✗ setup\n    the promise this test returned never settled');
  });

  it('source under test that registers passing tests and throws a value with nothing to say: the test file did not load, FAIL', async () => {
    const result = await runCheck({
      'src/slugify.js': "test('lower-cases a single word', () => {});\nthrow '';\n",
    });
    expect(result.content).toMatch(/^FAIL\n/);
    expect(result.content).toContain('✗ could not load test/slugify.test.js: threw ""');
  });

  it('each test is reported with the file that registered it: a test file, the code under test, or the global test()', async () => {
    const source = `test('registered by the source', () => {});\nglobalThis.test('registered through the global', () => {});\n${fixFailingTest.files['src/slugify.js']!}`;
    const result = await runNodeTests({
      workspace: workspaceWith({ 'src/slugify.js': source }),
      entries: [ENTRY],
    });
    expect(result.results?.map((r) => [r.file, r.name])).toEqual([
      ['src/slugify.js', 'registered by the source'],
      ['', 'registered through the global'],
      ...fixFailingTest.testNames[ENTRY]!.map((name) => [ENTRY, name]),
    ]);
  });

  it('source under test that tries the same cannot either', async () => {
    const result = await runCheck({
      'src/slugify.js': sourceWithHostRealmRewrite(fixFailingTest.files['src/slugify.js']!),
    });
    expect(result.content).toMatch(/^FAIL\n/);
    expect(result.content).toMatch(/2 passed, 2 failed/);
  });

  it('import() inside the check loads nothing, and no error of the check process reaches the tests', async () => {
    const probe = `
      const realm = (e) => { let top = e; while (Object.getPrototypeOf(top) !== null) top = Object.getPrototypeOf(top); return top === Object.prototype ? 'own realm' : 'HOST REALM'; };
      test('awaits a dynamic import', async () => { await import('node:fs'); });
      test('caught import errors come from the own realm', async () => {
        const seen = [];
        import('node:fs').catch((e) => seen.push(realm(e)));
        for (let i = 0; i < 50; i++) await null;
        if (seen.includes('HOST REALM')) throw new Error('reached the host realm');
      });
    `;
    const result = await runNodeTests({ workspace: workspaceWith({ [ENTRY]: probe }), entries: [ENTRY] });
    expect(result.passed).toBe(false);
    expect(result.output).toContain(
      '✗ awaits a dynamic import\n    the promise this test returned never settled (the check has no timers, and import() is not available)',
    );
    expect(result.output).toContain('✓ caught import errors come from the own realm');
  });
});

describe('async tests are awaited', () => {
  it('a rejected async test fails the check', async () => {
    const result = await runCheck({ [ENTRY]: ASYNC_REJECTED_TEST });
    expect(result.content).toMatch(
      /^FAIL\n✗ joins every word \(async\)\n {4}AssertionError: expected "loop-lab-agent-loops-that-recover"/,
    );
    expect(result.content).toContain('0 passed, 1 failed');
  });

  it('a resolved async test passes, a thenable that rejects fails, and one that never settles fails', async () => {
    const tests = `
      test('resolves', async () => { await null; await null; });
      test('thenable rejects', () => ({ then: (ok, no) => no(new Error('nope')) }));
      test('never settles', () => new Promise(() => {}));
    `;
    const result = await runNodeTests({ workspace: workspaceWith({ [ENTRY]: tests }), entries: [ENTRY] });
    expect(result.output).toContain('✓ resolves');
    expect(result.output).toContain('✗ thenable rejects\n    Error: nope');
    expect(result.output).toContain('✗ never settles\n    the promise this test returned never settled');
    expect(result.passed).toBe(false);
  });

  it('an async test that never stops awaiting ends at the time limit', async () => {
    const tests = `test('spins', async () => { for (;;) await null; });`;
    const result = await runNodeTests({ workspace: workspaceWith({ [ENTRY]: tests }), entries: [ENTRY] });
    expect(result.passed).toBe(false);
    expect(result.output).toContain('✗ spins\n    timed out');
    expect(result.output).toContain('Tests timed out after 2000 ms of CPU time');
  });
});
