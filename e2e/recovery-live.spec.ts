import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';

/** Faults switched on during a run, and the loop's answer drawn as it happens. */

test('a stall toggled during a run: the watchdog fires, the retry succeeds', async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', timeScale: 1 });
  // A short watchdog window so the lesson fits in a test: 3 s instead of 120 s.
  const base = page.getByTestId('recovery-watchdog.baseMs');
  if (!(await base.isVisible())) await page.getByTestId('recovery-group-watchdog').locator('summary').click();
  await base.fill('3000');
  await playground.run();
  await expect(playground.turnCard(1)).toBeVisible({ timeout: 30_000 });
  await playground.setFault('stall-after-first');

  // Between the last delta and the watchdog firing, the header does not claim the stream is flowing.
  await expect(page.getByTestId('run-status-reason')).toContainText(/no content for \d/, { timeout: 30_000 });
  // …nor does the vendor label say it is answering.
  await expect(page.getByText('stream open, silent')).toBeVisible({ timeout: 5_000 });
  await expect(page.getByText(/watchdog/i).first()).toBeVisible({ timeout: 30_000 });
  await expect(playground.ladderSteps.first()).toBeVisible();
  await expect(playground.ladderSteps.first()).toContainText(/timeout|watchdog|empty/i);
  const end = await playground.waitForEnd();
  expect(end).toEqual({ reason: 'end_turn', complete: true });
});

test('tools that fail well: a blocked repeat (loop guard) and a disabled tool (failure budget)', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  // A simulated model that repeats its failing call: the loop guard blocks the third identical one.
  await playground.configure({
    vendor: 'sim-anthropic',
    clock: 'virtual',
    preset: 'codesmith',
    policy: 'repeat-on-failure',
  });
  await playground.run();
  await playground.waitForEnd();
  await expect(playground.toolCallsWithStatus('blocked').first()).toBeVisible();
  await expect(page.getByText(/guard: blocked/).first()).toBeVisible();

  // The course preset with a budget of one failure per tool: a crashing tool is disabled at once.
  await playground.configure({ preset: 'course', policy: '', faults: ['tool-throw'] });
  const budget = page.getByTestId('recovery-tools.failureBudget');
  if (!(await budget.isVisible())) await page.getByTestId('recovery-group-tools').locator('summary').click();
  await budget.fill('1');
  await playground.run();
  await playground.waitForEnd();
  await expect(page.getByText('disabled tools')).toBeVisible();
  await expect(page.getByText(/guard: disabled/).first()).toBeVisible();
});
