import { describe, expect, it } from 'vitest';
import { fixFailingTest } from '../scenarios/fix-failing-test';
import { createWorkspace } from '../workspace';
import { runNodeTests } from './run-node-tests';
import { checkClock, cpuTimeMs } from './run-sandboxed';
import { BACKSTOP_RETRIES, MAX_TESTS } from './sandbox-limits';

/**
 * The check's limits do not depend on how busy the machine is: its time limit is the child's
 * CPU time, so a child the machine starves (here: stopped with SIGSTOP, which takes every
 * second of wall time from it and no CPU) ends as it would on an idle machine; only a wall-clock
 * backstop many times larger stops a child that never gets the CPU, and then the check says the
 * machine is overloaded instead of passing off a timeout. And a check cannot be inflated by
 * registering more tests than it keeps.
 */
const ENTRY = 'test/slugify.test.js';
const FIXED = fixFailingTest.files['src/slugify.js']!.replace(
  ".replace(/[^a-z0-9]+/, '-')",
  ".replace(/[^a-z0-9]+/g, '-')",
);

function workspaceWith(files: Record<string, string>) {
  return createWorkspace({ files: { ...fixFailingTest.files, ...files } });
}

/** Stops each child as its request is sent (no CPU at all) and lets it go on after `ms` of wall time. */
function starve(ms: number, which: (n: number) => boolean = () => true) {
  const pids: number[] = [];
  const onChild = (pid: number): void => {
    pids.push(pid);
    if (!which(pids.length)) return;
    process.kill(pid, 'SIGSTOP');
    setTimeout(() => {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Already killed (by its backstop): nothing to wake.
      }
    }, ms);
  };
  return { onChild, pids };
}

describe.runIf(checkClock() === 'cpu')('a check limited by CPU time, not wall time', () => {
  it("reads a process's CPU time from /proc: the figure the process reads itself, never ahead of it", () => {
    const own = (): number => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
    const start = own();
    for (let i = 0; i < 10; i++) {
      const until = own() + 15;
      while (own() < until);
      const read = cpuTimeMs(process.pid)!;
      const after = own();
      expect(read).toBeLessThanOrEqual(after);
      expect(after - read).toBeLessThan(30); // ticks of 10 ms, rounded down
    }
    expect(own() - start).toBeGreaterThanOrEqual(150);
  });

  it('stops an endless loop at its CPU time with a report naming the tests that finished, though the child was starved past that in wall time first', async () => {
    const tests = `
      test('finishes first', () => {});
      test('spins', () => { for (;;) {} });
      test('never reached', () => {});
    `;
    // Stopped for longer than its limit: a wall-clock limit would have ended it before 'finishes first' ran.
    const { onChild } = starve(1_500);
    const result = await runNodeTests({
      workspace: workspaceWith({ [ENTRY]: tests }),
      entries: [ENTRY],
      limits: { timeMs: 700, graceMs: 500 },
      onChild,
    });
    expect(result.stopped).toBe('time_limit');
    expect(result.output).toContain('✓ finishes first\n✗ spins\n    timed out');
    expect(result.output).not.toContain('never reached');
    expect(result.output).toContain(
      'Tests timed out after 700 ms of CPU time (an infinite loop?); later tests did not run.',
    );
  });

  it('does the same in a child it spawned itself (not through the launcher)', async () => {
    const tests = `test('ok', () => {}); test('spins', () => { for (;;) {} });`;
    const { onChild } = starve(1_500);
    // A heap cap other than the pool's starts the child directly from this process.
    const limits = { timeMs: 700, graceMs: 500, heapMb: 48 };
    const result = await runNodeTests({
      workspace: workspaceWith({ [ENTRY]: tests }),
      entries: [ENTRY],
      limits,
      onChild,
    });
    expect(result.output).toContain('✓ ok\n✗ spins\n    timed out');
  });

  it('passes a starved check: a child stopped for longer than its limit in wall time still finishes its tests', async () => {
    const { onChild, pids } = starve(2_500);
    const result = await runNodeTests({
      workspace: workspaceWith({ 'src/slugify.js': FIXED }),
      entries: [ENTRY],
      limits: { timeMs: 1_000, graceMs: 500 },
      onChild,
    });
    expect(pids).toHaveLength(1);
    expect(result).toMatchObject({ passed: true });
    expect(result.output).toMatch(/4 passed, 0 failed$/);
  });

  it('runs a check the backstop stopped again in a fresh child, and answers from the try that finished', async () => {
    const { onChild, pids } = starve(4_000, (n) => n === 1);
    const result = await runNodeTests({
      workspace: workspaceWith({ 'src/slugify.js': FIXED }),
      entries: [ENTRY],
      limits: { timeMs: 1_000, graceMs: 500, backstopMs: 800 },
      onChild,
    });
    expect(pids).toHaveLength(2);
    expect(pids[1]).not.toBe(pids[0]);
    expect(result).toMatchObject({ passed: true });
  });

  it('says the machine is overloaded when only the backstop stopped the check, on every try', async () => {
    const { onChild, pids } = starve(10_000);
    const result = await runNodeTests({
      workspace: workspaceWith({ 'src/slugify.js': FIXED }),
      entries: [ENTRY],
      limits: { timeMs: 1_000, graceMs: 500, backstopMs: 800 },
      onChild,
    });
    expect(pids).toHaveLength(1 + BACKSTOP_RETRIES);
    expect(result).toEqual({
      passed: false,
      stopped: 'host_overloaded',
      output:
        'Tests not finished: the machine is overloaded. The test process got too little CPU to finish or reach its time limit ' +
        `within 800 ms of wall time, on each of ${1 + BACKSTOP_RETRIES} tries; what the tests would say is unknown.`,
    });
  });
});

describe('a check that registers more tests than its cap', () => {
  it('fails and says so, though every test it kept passed', async () => {
    const flood = `for (let i = 0; i < 600; i++) test('empty ' + i, () => {});\n`;
    const result = await runNodeTests({
      workspace: workspaceWith({ 'src/slugify.js': flood + FIXED }),
      entries: [ENTRY],
    });
    expect(result.passed).toBe(false);
    expect(result.stopped).toBeUndefined();
    expect(result.output).toContain(
      `604 tests registered, over the check's cap of ${MAX_TESTS}: the check fails (only the first ${MAX_TESTS} ran).`,
    );
    expect(result.output).toContain(`${MAX_TESTS} passed, 0 failed`);
    // At the cap exactly, it passes.
    const atCap = `for (let i = 0; i < ${MAX_TESTS - 4}; i++) test('empty ' + i, () => {});\n`;
    const passing = await runNodeTests({
      workspace: workspaceWith({ 'src/slugify.js': atCap + FIXED }),
      entries: [ENTRY],
    });
    expect(passing).toMatchObject({ passed: true });
    expect(passing.output).not.toContain('registered');
  });

  it('counts registrations past the cap without keeping them: a million cost little', async () => {
    const flood = `for (let i = 0; i < 1e6; i++) test('empty', () => {});\n`;
    const result = await runNodeTests({
      workspace: workspaceWith({ 'src/slugify.js': flood + FIXED }),
      entries: [ENTRY],
    });
    expect(result.stopped).toBeUndefined();
    expect(result.output).toContain(`1000004 tests registered, over the check's cap of ${MAX_TESTS}`);
  });
});
