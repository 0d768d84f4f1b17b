import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';
import { RunsPage } from './pages/runs-page';

/** The experimentation surface: the form in the URL, prompt sets, re-run, the runs list. */

test('the form lives in the URL: edit the system prompt and a budget, reload, and it is all back; a reload mid-run reattaches', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await page.getByTestId('system-input').fill('Be terse. Run the check last.');
  await page.getByTestId('budget-maxCostUsd').fill('0.25');
  await page.getByTestId('output-cap-input').fill('3000');
  await page.getByTestId('tool-descriptions').locator('summary').click();
  await page.getByTestId('tool-description-search').fill('Find a text before reading files.');
  await playground.configure({ seed: 5, clock: 'real', timeScale: 0.3 });
  await expect(page).toHaveURL(/sys=Be\+terse/);
  expect(page.url()).not.toMatch(/apiKey|key=/);

  await page.reload();
  await expect(page.getByTestId('system-input')).toHaveValue('Be terse. Run the check last.');
  await expect(page.getByTestId('budget-maxCostUsd')).toHaveValue('0.25');
  await expect(page.getByTestId('output-cap-input')).toHaveValue('3000');
  await expect(playground.seedInput).toHaveValue('5');
  await expect(page.getByTestId('tool-descriptions')).toContainText('1 replaced');

  // Mid-run: the run id is in the URL, so a reload replays the run and follows it live.
  const id = await playground.run();
  await expect(page).toHaveURL(new RegExp(`run=${id}`));
  await expect(playground.turnCard(1)).toBeVisible();
  await page.reload();
  await expect(playground.runLink).toHaveAttribute('href', `/runs/${id}`);
  await expect(page.getByTestId('system-input')).toHaveValue('Be terse. Run the check last.');
  expect(await playground.waitForEnd()).toEqual({ reason: 'end_turn', complete: true });
});

test('a prompt set saved, run, listed and re-run; the run page shows its whole config and opens it in the playground', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await page.getByTestId('system-input').fill('You are careful. Read before you edit.');
  await page.getByTestId('prompt-set-name').fill('careful');
  await page.getByTestId('prompt-set-save').click();
  await expect(page.getByTestId('prompt-sets')).toContainText('runs record careful v1');
  await playground.configure({ clock: 'virtual', seed: 8, faults: ['overloaded-x3'] });
  const id = await playground.run();
  await playground.waitForEnd();

  await page.goto(`/runs/${id}`);
  const config = page.getByTestId('run-config');
  await expect(config).toContainText('seed 8');
  await expect(config).toContainText('prompt set careful v1');
  await config.locator('summary').click();
  await expect(page.getByTestId('config-system-prompt')).toContainText('You are careful.');
  await expect(page.getByTestId('config-faults')).toContainText('overloaded ×3');

  await page.getByTestId('open-in-playground').click();
  await expect(page).toHaveURL(/\/\?/);
  await expect(page.getByTestId('system-input')).toHaveValue('You are careful. Read before you edit.');
  await expect(playground.seedInput).toHaveValue('8');
  await expect(playground.faultToggle('overloaded-x3')).toBeChecked();
  await expect(page.getByTestId('prompt-set-select')).toHaveValue('["careful",1]');

  const runs = new RunsPage(page);
  await runs.goto();
  await expect(runs.row(id).locator('[data-col="title"]')).toContainText('careful v1');

  await page.goto(`/runs/${id}`);
  await page.getByTestId('rerun-button').click();
  await page.waitForURL((url) => /\/runs\//.test(url.pathname) && !url.pathname.endsWith(id));
  await expect(page.getByTestId('run-config')).toContainText('seed 8');
  await expect(page.getByTestId('run-config')).toContainText('prompt set careful v1');
});

test('the runs list has the columns a person sorts and filters by', async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  for (const seed of [31, 7]) {
    await playground.configure({ clock: 'virtual', seed, preset: seed === 7 ? 's11' : 'codesmith' });
    await playground.run();
    await playground.waitForEnd();
  }
  const runs = new RunsPage(page);
  await runs.goto();
  const headers = page.getByRole('columnheader');
  await expect(headers).toHaveText(
    [
      'title',
      'scenario',
      'vendor / model',
      'preset',
      'overrides',
      'faults',
      'seed',
      'outcome',
      'verdict',
      'duration',
      'cost',
      'date',
    ].map((h) => new RegExp(`^${h}`, 'i')),
  );
  const seeds = () => runs.rows.locator('[data-col="seed"]').allTextContents();

  await page.getByTestId('runs-sort-seed').click();
  await expect(page.getByTestId('runs-sort-seed')).toHaveAttribute('aria-sort', 'ascending');
  const up = (await seeds()).map(Number);
  expect(up).toEqual([...up].sort((a, b) => a - b));
  await page.getByTestId('runs-sort-seed').click();
  const down = (await seeds()).map(Number);
  expect(down).toEqual([...down].sort((a, b) => b - a));

  // The date is shown whole, to the second.
  await expect(runs.rows.first().locator('[data-col="date"]')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  await page.getByTestId('runs-filter').fill('s11');
  await expect(runs.rows).toHaveCount(1);
  await expect(runs.rows.first().locator('[data-col="seed"]')).toHaveText('7');
  await page.getByTestId('runs-filter').fill('');

  // Per-column filters, kept in the address: a filtered list survives a reload and can be shared.
  await page.getByTestId('runs-filter-preset').selectOption('s11');
  await page.getByTestId('runs-filter-seed').fill('7');
  await expect(runs.rows).toHaveCount(1);
  await expect(runs.rows.first().locator('[data-col="preset"]')).toHaveText('s11');
  await expect.poll(() => new URL(page.url()).searchParams.get('preset')).toBe('s11');
  expect(new URL(page.url()).searchParams.get('seed')).toBe('7');
  await page.reload();
  await expect(page.getByTestId('runs-filter-preset')).toHaveValue('s11');
  await expect(page.getByTestId('runs-filter-seed')).toHaveValue('7');
  await expect(runs.rows).toHaveCount(1);
  await expect(runs.rows.first().locator('[data-col="seed"]')).toHaveText('7');
  // Outcome and verdict are selects of what the runs have; a date range past today empties the list.
  await page.getByTestId('runs-filter-outcome').selectOption('completed');
  await expect(runs.rows).toHaveCount(1);
  await page.getByTestId('runs-filter-from').fill('2999-01-01');
  await expect(runs.rows).toHaveCount(0);
  await page.getByTestId('runs-filters-clear').click();
  await expect(
    runs.rows.filter({ has: page.locator('[data-col="seed"]', { hasText: /^31$/ }) }),
  ).not.toHaveCount(0);
  // Only the sort (seed, largest first, from the clicks above) is left in the address.
  await expect.poll(() => new URL(page.url()).search).toBe('?sort=-seed');
});
