import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';
import { RunPage } from './pages/run-page';

/**
 * The takeover as a room sees it on a laptop screen: a swap mid-run brings the takeover panel
 * into view with the request sent before and after; Re-run of the swapped run makes the swap again.
 */
test.use({ viewport: { width: 1440, height: 900 } });

test('swap mid-run: the takeover panel in view with both request bodies; Re-run reproduces the swap', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const playground = new PlaygroundPage(page);
  await playground.goto();
  // Slow enough that a loaded machine's browser can reach "Swap to…" before the run ends.
  await playground.configure({ vendor: 'sim-anthropic', timeScale: 3 });
  const id = await playground.run();
  await expect(playground.turnCard(1)).toBeVisible({ timeout: 30_000 });

  await page.getByTestId('swap-vendor-select').selectOption('sim-deepseek');
  await page.getByTestId('swap-button').click();

  // The payoff is on screen, not below the fold: the panel, and the wire on both sides of the swap.
  const panel = page.getByTestId('takeover-panel');
  await expect(page.getByTestId('wire-after')).toBeVisible({ timeout: 30_000 });
  await expect(panel).toBeInViewport();
  const before = page.getByTestId('wire-before');
  const after = page.getByTestId('wire-after');
  await expect(before).toBeInViewport();
  await expect(after).toBeInViewport();
  await expect(before).toContainText('sim-anthropic/claude-sim-sonnet');
  await expect(before).toContainText('"messages"');
  await expect(after).toContainText('sim-deepseek/deepseek-sim-reasoner');
  await expect(after).toContainText('POST http://sim.deepseek.local/v1/chat/completions');
  await expect(after).not.toContainText('"signature"');
  await expect(page.getByTestId('swap-outcome')).toContainText(
    'Swapped to sim-deepseek/deepseek-sim-reasoner from turn',
  );

  // The diff of the two bodies, and the naive body beside the vendor's real answer.
  await page.getByTestId('wire-tab-diff').click();
  await expect(page.getByTestId('wire-diff')).toContainText(/lines removed, \d+ added/);
  await page.getByTestId('wire-tab-naive').click();
  await expect(page.getByTestId('wire-naive')).toContainText('"messages"');

  const swapLine = await panel.getByTestId('takeover-swap').first().innerText();
  const turn = /turn (\d+)/.exec(swapLine)?.[1];
  expect(turn).toBeDefined();
  await expect(panel.getByTestId('swap-recorded')).toContainText(
    `recorded in the run's config as a swap at turn ${turn}`,
  );
  expect(await playground.waitForEnd()).toEqual({ reason: 'end_turn', complete: true });

  // The run page's config holds the swap; Re-run makes it again at the same turn.
  const runPage = new RunPage(page);
  await runPage.goto(id);
  await page.getByTestId('run-config').locator('summary').click();
  await expect(page.getByTestId('config-swaps')).toContainText(
    `turn ${turn} → sim-deepseek / deepseek-sim-reasoner`,
  );
  await page.getByTestId('rerun-button').click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${id}$`), { timeout: 30_000 });
  expect(await runPage.waitForEnd()).toEqual({ reason: 'end_turn', complete: true });
  const again = page.getByTestId('takeover-swap');
  await expect(again).toHaveCount(1);
  await expect(again).toContainText('sim-anthropic/claude-sim-sonnet → sim-deepseek/deepseek-sim-reasoner');
  await expect(again).toContainText(`turn ${turn}`);
  await expect(again).toContainText('scheduled in the config');
});
