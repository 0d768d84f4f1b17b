import * as fs from 'node:fs';
import type * as FsModule from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { fixFailingTest } from '../scenarios/fix-failing-test';
import { createWorkspace } from '../workspace';
import { runNodeTests } from './run-node-tests';
import { checkClock } from './run-sandboxed';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof FsModule>();
  const spied = { ...real, readFileSync: vi.fn(real.readFileSync), openSync: vi.fn(real.openSync) };
  return { ...spied, default: spied };
});

/**
 * The parent polls a running check's CPU time and memory every 20 ms, on the thread that runs
 * the run (a run thread hosts many runs and their deadlines): each poll is one read of each
 * /proc file, opened once for the check, not an open, read and close by path.
 */
describe.runIf(checkClock() === 'cpu')("a check's /proc poll", () => {
  it('opens the child’s stat and statm once and reads them again at every poll', async () => {
    let pid: number | undefined;
    const result = await runNodeTests({
      workspace: createWorkspace({ files: fixFailingTest.files }),
      entries: ['test/slugify.test.js'],
      // Stopped for 400 ms as its request is sent: some twenty polls while it waits.
      onChild: (child) => {
        pid = child;
        process.kill(child, 'SIGSTOP');
        setTimeout(() => process.kill(child, 'SIGCONT'), 400);
      },
    });
    expect(result.output).toMatch(/passed, \d+ failed$/);
    const ofChild = (calls: unknown[][]): string[] =>
      calls.map(([file]) => String(file)).filter((file) => file.startsWith(`/proc/${pid}/`));
    expect(ofChild(vi.mocked(fs.openSync).mock.calls).sort()).toEqual([
      `/proc/${pid}/stat`,
      `/proc/${pid}/statm`,
    ]);
    expect(ofChild(vi.mocked(fs.readFileSync).mock.calls)).toEqual([]);
  });
});
