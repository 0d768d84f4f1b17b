import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';

/** Labels that say what is true, each read off the run's own events. */

test('a planned swap: the wire panes wrap long JSON lines, and the run’s config line names the swap', async ({
  page,
}) => {
  const swaps = JSON.stringify([{ atTurn: 2, vendor: 'sim-deepseek', model: '' }]);
  await page.goto(`/?clock=virtual&sw=${encodeURIComponent(swaps)}`);
  const playground = new PlaygroundPage(page);
  await expect(playground.runButton).toBeEnabled();
  const id = await playground.run();
  await playground.waitForEnd();
  const before = page.getByTestId('wire-before').locator('pre');
  await expect(before).toBeVisible();
  // Each line of the body is whole on screen: nothing runs past the pane's right edge.
  const fits = await before.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
  expect(fits).toBe(true);

  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-config').locator('summary')).toContainText(
    'swap: turn 2 → sim-deepseek/deepseek-sim-reasoner (planned)',
  );
});
