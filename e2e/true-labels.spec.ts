import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';
import { ComparePage, finishedRun } from './pages/compare-page';

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

test('compare: a prompt-only pair marks its diverging turn with the reason at the mark', async ({
  page,
  request,
}) => {
  const base = { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed: 4 };
  const a = await finishedRun(request, base);
  const b = await finishedRun(request, {
    ...base,
    system: 'You are a terse coding agent. Fix the failing test.',
  });
  await page.goto(`/compare?a=${a}&b=${b}`);
  const compare = new ComparePage(page);
  await expect(compare.marker).toBeVisible();
  const top = await compare.divergence.innerText();
  const reason = compare.divergedTurn.getByTestId('divergence-reason');
  await expect(reason).toBeVisible();
  // The same words as the top line, beside the two cards that may look alike.
  const said = (await reason.innerText()).replace(/^◆\s*/, '').replace(/\s*\(A #.*$/, '');
  expect(said.length).toBeGreaterThan(10);
  expect(top).toContain(said);
});
