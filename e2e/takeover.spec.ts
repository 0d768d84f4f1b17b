import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';

/** A takeover demo as a person does it: swap vendors mid-run, read what travelled. */

test('swap from Anthropic to the DeepSeek-style vendor mid-run: the takeover panel and the vendor lane', async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', timeScale: 1 });
  await playground.run();
  await expect(playground.turnCard(1)).toBeVisible({ timeout: 30_000 });

  // The vendor picker no longer pretends: it is fixed for the run, and "Swap to…" is live.
  await expect(playground.vendorSelect).toBeDisabled();
  const swap = page.getByTestId('swap-control');
  await expect(swap).toBeVisible();
  await page.getByTestId('swap-vendor-select').selectOption('sim-deepseek');
  await page.getByTestId('swap-button').click();

  const panel = page.getByTestId('takeover-panel');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel).toContainText('sim-anthropic/claude-sim-sonnet');
  await expect(panel).toContainText('sim-deepseek/deepseek-sim-reasoner');
  await expect(page.getByTestId('takeover-dropped')).toContainText(/thinking/, { timeout: 30_000 });
  await expect(page.getByTestId('takeover-carried')).toContainText('(reasoning omitted)');
  await page.getByTestId('naive-toggle').click();
  await expect(page.getByTestId('naive-verdict')).toContainText(
    '400 invalid_request_error: The reasoning_content in the thinking mode must be passed back to the API.',
  );

  const lane = page.getByTestId('vendor-lane');
  await expect(lane.locator('[data-testid="vendor-segment"][data-vendor="sim-anthropic"]')).toHaveCount(1);
  await expect(lane.locator('[data-testid="vendor-segment"][data-vendor="sim-deepseek"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('waterfall-marker').and(page.locator('[data-kind="swap"]'))).toHaveCount(1);

  const end = await playground.waitForEnd();
  expect(end).toEqual({ reason: 'end_turn', complete: true });
  // Finished: the header no longer says anyone is answering now.
  await expect(page.getByText(/last answered by/)).toBeVisible();
  await expect(page.getByText(/answering now/)).toHaveCount(0);
  await expect(swap).toBeHidden();
});
