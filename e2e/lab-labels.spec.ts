import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';
import { RunsPage } from './pages/runs-page';

/** The lab's labels, read as a person reads them, and the task verdict beside how the run ended. */

test('a finished run: no card still "streaming", the title call on its own card, the task verdict beside the reason', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  // An expanded parameter group stays expanded across Run.
  const retryGroup = page.getByTestId('recovery-group-retry');
  await retryGroup.locator('summary').click();
  await expect(retryGroup).toHaveAttribute('open', '');
  await playground.configure({ vendor: 'sim-anthropic', clock: 'virtual', seed: 3 });
  const id = await playground.run();
  const end = await playground.waitForEnd();
  expect(end).toEqual({ reason: 'end_turn', complete: true });
  await expect(retryGroup).toHaveAttribute('open', '');

  const cards = playground.turnCards;
  await expect(cards.filter({ hasText: /streaming|requesting/ })).toHaveCount(0);
  const background = page.getByTestId('background-card');
  await expect(background).toHaveCount(1);
  await expect(background).toHaveAttribute('data-purpose', 'title');
  await expect(background).toContainText('answered');
  // The last turn counts only its own call.
  const last = cards.last();
  await expect(last).toContainText('1 attempt');

  const verdict = page.getByTestId('task-verdict').first();
  await expect(verdict).toHaveAttribute('data-verdict', 'done');
  await expect(page.getByTestId('run-status')).not.toContainText('finished its task');

  const runs = new RunsPage(page);
  await runs.goto();
  await expect(runs.row(id).getByTestId('task-verdict')).toHaveAttribute('data-verdict', 'done');
});

test('at 390 px the controls are a drawer and nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const playground = new PlaygroundPage(page);
  await page.goto('/');
  const controls = page.getByTestId('controls');
  await expect(controls).toBeHidden();
  const sideways = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await sideways()).toBeLessThanOrEqual(0);
  // Every page of the site is reachable from the header, none clipped behind a hidden scroll.
  for (const name of ['Playground', 'Runs', 'Sweeps', 'Lessons', 'Glossary']) {
    const link = page.getByTestId('site-nav').getByRole('link', { name, exact: true });
    await expect(link).toBeInViewport({ ratio: 1 });
  }

  await page.getByTestId('controls-toggle').click();
  await expect(controls).toBeVisible();
  // The experimentation fields fit the drawer too.
  await page.getByTestId('system-input').fill('A long system prompt without spaces: ' + 'x'.repeat(200));
  await page.getByTestId('tool-descriptions').locator('summary').click();
  await expect(page.getByTestId('tool-description-run_check')).toBeVisible();
  await page.getByTestId('output-cap-input').fill('4000');
  expect(await sideways()).toBeLessThanOrEqual(0);
  await playground.configure({ vendor: 'sim-openai', clock: 'virtual', seed: 4 });
  await playground.runButton.click();
  await expect(controls).toBeHidden();
  await playground.waitForEnd();
  await expect(playground.turnCard(1)).toBeVisible();
  const box = await playground.turnCard(1).boundingBox();
  expect(box!.width).toBeGreaterThan(300);
  expect(await sideways()).toBeLessThanOrEqual(0);

  // The run's page with its config open, and the runs list: the wide table scrolls inside itself.
  const id = (await playground.runLink.getAttribute('href'))!;
  await page.goto(id);
  await page.getByTestId('run-config').locator('summary').click();
  await expect(page.getByTestId('config-system-prompt')).toBeVisible();
  expect(await sideways()).toBeLessThanOrEqual(0);
  await page.goto('/runs');
  await expect(page.getByTestId('runs-row').first()).toBeVisible();
  expect(await sideways()).toBeLessThanOrEqual(0);
});

test('at 390 px a live run can be aborted from the bar above it (the drawer is closed)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const playground = new PlaygroundPage(page);
  await page.goto('/');
  await page.getByTestId('controls-toggle').click();
  // A 7 s Retry-After on the real clock keeps the run live long enough to read and stop it.
  await playground.configure({
    vendor: 'sim-anthropic',
    clock: 'real',
    timeScale: 1,
    faults: ['rate-limit-7s'],
  });
  await playground.runButton.click();
  await expect(page.getByTestId('controls')).toBeHidden();
  // The whole waiting reason is readable on a phone, the server's ask included (not cut at two lines).
  const reason = page.getByTestId('run-status-reason');
  await expect(reason).toContainText('server asked 7 s', { timeout: 15_000 });
  expect(await reason.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
  await page.getByTestId('bar-abort').click();
  expect((await playground.waitForEnd()).reason).toBe('aborted');
  await expect(page.getByTestId('bar-abort')).toBeHidden();
});

test("a retry wait: the header's countdown and the attempt card's count agree at every moment", async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await page.goto('/');
  // Twice as fast as the wall clock: a display a tick behind the other is off by a visible amount.
  await playground.configure({
    vendor: 'sim-anthropic',
    clock: 'real',
    timeScale: 0.5,
    faults: ['rate-limit-7s'],
  });
  await playground.runButton.click();
  await expect(page.getByTestId('retry-wait')).toHaveAttribute('data-state', 'waiting', { timeout: 15_000 });
  // "600 ms" or "1.4 s", as formatMs writes a time.
  const seconds = (text: string, pattern: RegExp): number => {
    const [, value = 'NaN', unit] = pattern.exec(text) ?? [];
    return Number(value) / (unit === 'ms' ? 1000 : 1);
  };
  let compared = 0;
  for (let i = 0; i < 8; i++) {
    // Both read in one go, from the same painted frame.
    const [header, card] = await page.evaluate(() => [
      document.querySelector('[data-testid=run-status-reason]')?.textContent ?? '',
      document.querySelector('[data-testid=retry-wait][data-state=waiting]')?.textContent ?? '',
    ]);
    if (!/more of/.test(header) || !/waiting…/.test(card)) break;
    const left = seconds(header, /waiting ([\d.]+) (ms|s) more of 7 s/);
    const spent = seconds(card, /waiting… ([\d.]+) (ms|s) of 7 s/);
    // Each is rounded to a tenth, so together they make 7 s give or take 0.1.
    expect(Math.abs(left + spent - 7), `header "${header}" · card "${card}"`).toBeLessThanOrEqual(0.11);
    compared++;
    await page.waitForTimeout(230);
  }
  expect(compared).toBeGreaterThanOrEqual(4);
  await page.getByTestId('abort-button').click();
  expect((await playground.waitForEnd()).reason).toBe('aborted');
});
