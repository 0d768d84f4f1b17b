import { mkdirSync } from 'node:fs';
import { LOOKUP_TABLE_FIX, squareTask, writeTaskFolder } from '@/lib/testing/task-folders';
import { expect, test } from './test';

/**
 * A task folder written at run time outside the repository (os.tmpdir), chosen on the tasks page
 * as a person chooses a folder, uploaded and run from its row: the lookup table the simulated
 * worker writes passes the visible tests and the verdict's hidden tests fail it.
 */
test.use({ viewport: { width: 1440, height: 900 } });

test('an uploaded task folder runs from the tasks page, and its hidden tests fail a lookup table', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const folder = writeTaskFolder('square-lookup', squareTask({ fix: LOOKUP_TABLE_FIX }));
  await page.goto('/tasks');
  await expect(page.getByTestId('builtin-task')).toHaveCount(4);
  await expect(page.getByTestId('no-uploaded-tasks')).toBeVisible();

  // A folder that is not a task is refused, the error naming the file.
  const bad = writeTaskFolder('not-a-task', { 'workspace/x.js': 'x', 'tests/x.test.js': 'test()' });
  await page.getByTestId('task-folder-input').setInputFiles(bad);
  await expect(page.getByTestId('task-upload-error')).toContainText(
    'task folder not-a-task: task.md is missing (the task text)',
  );

  await page.getByTestId('task-folder-input').setInputFiles(folder);
  await expect(page.getByTestId('task-uploaded')).toHaveText('Uploaded square-lookup: Square a number');
  await expect(page.getByTestId('task-upload-error')).toHaveCount(0);
  const row = page.getByTestId('uploaded-task');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('square-lookup');
  await expect(row.locator('td').nth(3)).toHaveText('1');
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: testInfo.outputPath('tasks-page.png'), fullPage: true });
  await page.screenshot({ path: 'test-results/tasks-page.png', fullPage: true });

  await row.getByRole('button', { name: 'Run square-lookup' }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  const verdict = page.getByTestId('task-verdict').first();
  await expect(verdict).toHaveAttribute('data-verdict', 'not_done', { timeout: 60_000 });
  const hidden = verdict.getByTestId('hidden-tests');
  await expect(hidden).toHaveAttribute('title', /squares 7/);
  await expect(hidden).toHaveAttribute('title', /squares -4/);
  // The verdict's scorers, from the run's own log: the visible tests passed, the hidden ones did not.
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const log = await (await page.request.get(`/api/runs/${id}/trace`)).text();
  const event = log
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { event: string; scorers?: { id: string; passed: boolean | null }[] })
    .find((e) => e.event === 'task_verdict');
  expect(event?.scorers?.map((s) => [s.id, s.passed])).toEqual([
    ['visible_tests', true],
    ['hidden_tests', false],
  ]);
  await page.screenshot({ path: 'test-results/tasks-run.png', fullPage: true });
});
