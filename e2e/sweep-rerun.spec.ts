import { expect, test } from './test';
import { OUTAGE_GRID } from '../lib/sweeps/execute-sweep-grid.testkit';

/**
 * A sweep where naive gives up at a 529 that codesmith retries: once it has ended, its page
 * offers to re-run the two failed runs with their reasons, and the button opens a new sweep of
 * only those jobs that names the old one. Each scorer of the verdict has a column in the table.
 */
const GRID = {
  name: 'outage',
  ...OUTAGE_GRID,
  seeds: { from: 1, to: 2 },
};

test.use({ viewport: { width: 1440, height: 900 } });

test('a sweep page re-runs only what failed, as a new sweep linked to the old one', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const created = await request.post('/api/sweeps', { data: GRID });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/sweeps/${id}`);
  const button = page.getByTestId('sweep-rerun');
  await expect(button).toHaveText('Re-run 2 failed', { timeout: 120_000 });
  await expect(button).toHaveAttribute('title', /job \d+: (model_error|retries_exhausted): /);
  // The verdict's scorers, a column each.
  await expect(page.locator('th', { hasText: 'visible_tests' })).toBeVisible();
  await expect(page.locator('th', { hasText: 'hidden_tests' })).toBeVisible();
  await page.screenshot({ path: 'test-results/sweep-rerun-before.png', fullPage: true });
  await button.click();
  await page.waitForURL((url) => url.pathname.startsWith('/sweeps/') && !url.pathname.endsWith(id));
  await expect(page.getByTestId('sweep-name')).toHaveText('re-run of outage: 2 failed');
  const of = page.getByTestId('sweep-rerun-of');
  await expect(of).toContainText(`A re-run of what failed in ${id}: 2 jobs`);
  await expect(of.getByRole('link', { name: id })).toHaveAttribute('href', `/sweeps/${id}`);
  await page.screenshot({ path: 'test-results/sweep-rerun-after.png', fullPage: true });
});
