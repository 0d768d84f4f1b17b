import { expect, test } from '@playwright/test';
import { RunPage } from './pages/run-page';

/** Fork a finished run from its page onto another vendor; both pages show the link. */
test('fork a stored run at a turn onto another vendor: the child says where it came from, the parent lists it', async ({ page, request, baseURL }) => {
  const created = await request.post('/api/runs', {
    headers: { origin: baseURL!, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
    data: { config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed: 5 } },
  });
  expect(created.status()).toBe(201);
  const { id: parentId } = (await created.json()) as { id: string };

  const parent = new RunPage(page);
  await parent.goto(parentId);
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 30_000 });

  await page.getByTestId('fork-open').click();
  const dialog = page.getByTestId('fork-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('fork-turn-select').selectOption('1');
  await page.getByTestId('fork-vendor-select').selectOption('sim-openai');
  await page.getByTestId('fork-submit').click();

  await page.waitForURL((url) => url.pathname.startsWith('/runs/') && !url.pathname.endsWith(parentId), { timeout: 15_000 });
  const childId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect(page.getByTestId('forked-from')).toContainText(`forked from ${parentId.slice(0, 8)} at turn 1`, { timeout: 30_000 });
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 30_000 });
  // On another vendor the fork's first request is a takeover.
  await expect(page.getByTestId('takeover-panel')).toContainText('sim-openai');

  await page.getByTestId('forked-from').getByRole('link').click();
  await expect(page.getByTestId('fork-children')).toContainText(`${childId.slice(0, 8)} at turn 1 on sim-openai`, { timeout: 15_000 });
});
