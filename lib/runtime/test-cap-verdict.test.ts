import { describe, expect, it } from 'vitest';
import { VirtualClock } from '@/lib/clock';
import { MAX_TESTS } from '@/lib/tools/check/sandbox-limits';
import { fixFailingTest } from '@/lib/tools/scenarios/fix-failing-test';
import { createWorkspace } from '@/lib/tools/workspace';
import { judgeTask } from './judge-task';

/**
 * The check keeps at most MAX_TESTS tests. Code under test that registers more empty tests
 * before the shipped ones load used to push them out of the check unseen ("500 passed, 0
 * failed", judged done with the bug untouched); now a check over its cap fails and says so.
 */
describe('a task verdict inflated by registering more tests than the check keeps', () => {
  it('600 empty tests ahead of the shipped ones, the bug untouched: not done, and the verdict says why', async () => {
    const source = `for (let i = 0; i < 600; i++) test('empty ' + i, () => {});\n${fixFailingTest.files['src/slugify.js']!}`;
    const workspace = createWorkspace({ files: { ...fixFailingTest.files, 'src/slugify.js': source } });
    const judgement = await judgeTask({
      scenario: fixFailingTest,
      workspace,
      clock: new VirtualClock(),
      task: fixFailingTest.task,
    });
    expect(judgement.verdict).toBe('not_done');
    expect(judgement.detail).toContain(
      `604 tests registered, over the check's cap of ${MAX_TESTS}: the check fails`,
    );
  });
});
