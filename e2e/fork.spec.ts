import { expect, test } from './test';
import { startStandIns, type StandIns } from '../lib/audit/vendor-stand-ins';
import { RunPage } from './pages/run-page';

const SAME_ORIGIN = (baseURL: string) => ({
  origin: baseURL,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/json',
});

let standIns: StandIns | undefined;
test.afterAll(async () => {
  await standIns?.close();
});

/** Fork a finished run from its page onto another vendor; both pages show the link. */
test('fork a stored run at a turn onto another vendor: the child says where it came from, the parent lists it', async ({
  page,
  request,
  baseURL,
}) => {
  const created = await request.post('/api/runs', {
    headers: SAME_ORIGIN(baseURL!),
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

  await page.waitForURL((url) => url.pathname.startsWith('/runs/') && !url.pathname.endsWith(parentId), {
    timeout: 15_000,
  });
  const childId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect(page.getByTestId('forked-from')).toContainText(
    `forked from ${parentId.slice(0, 8)} at turn 1`,
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 30_000 });
  // On another vendor the fork's first request is a takeover.
  await expect(page.getByTestId('takeover-panel')).toContainText('sim-openai');

  // The header's request count is true: the copied ones and this run's own (what the budget counts) apart.
  const split = (await page.getByTestId('request-split').textContent()) ?? '';
  const [, total, copied, own] =
    /(\d+) requests?: (\d+) copied from the parent, (\d+) in this run/.exec(split) ?? [];
  expect(Number(copied)).toBeGreaterThan(0);
  expect(Number(total)).toBe(Number(copied) + Number(own));
  await expect(page.getByTestId('attempt-budget')).toHaveText(new RegExp(`^${own}/\\d+ req$`));

  // Copied turn cards say so and link to the parent at that turn; the fork's own turns do not.
  await expect(
    page.locator('[data-testid="turn-card"][data-iteration="2"] [data-testid="from-parent"]'),
  ).toHaveCount(0);
  await page.locator('[data-testid="turn-card"][data-iteration="1"] [data-testid="from-parent"]').click();
  await page.waitForURL((url) => url.pathname.endsWith(parentId) && url.searchParams.get('turn') === '1', {
    timeout: 15_000,
  });
  await expect(page.locator('[data-testid="turn-card"][data-iteration="1"]')).toHaveAttribute(
    'data-selected',
    'true',
    { timeout: 15_000 },
  );
  await expect(page.getByTestId('fork-children')).toContainText(
    `${childId.slice(0, 8)} at turn 1 on sim-openai`,
    { timeout: 15_000 },
  );
});

/** Fork… onto an OpenAI-compatible server by base URL, with the key & endpoint dialog's own fields. */
test('fork onto an OpenAI-compatible endpoint with a typed key: the key reaches the endpoint and nothing else', async ({
  page,
  request,
  baseURL,
}) => {
  const KEY = 'sk-e2e-fork-endpoint-canary-4b81d0c7';
  standIns = await startStandIns({ timeScale: 0.02 });
  const standIn = standIns.requestChosen.openai;
  const created = await request.post('/api/runs', {
    headers: SAME_ORIGIN(baseURL!),
    data: {
      config: { provider: { vendor: 'sim-openai' }, scenario: 'fix-failing-test', clock: 'virtual', seed: 5 },
    },
  });
  const { id: parentId } = (await created.json()) as { id: string };
  await new RunPage(page).goto(parentId);
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 30_000 });

  await page.getByTestId('fork-open').click();
  await page.getByTestId('fork-turn-select').selectOption('1');
  await page.getByTestId('fork-vendor-select').selectOption('openai-compatible');
  await page.getByTestId('fork-preset-ollama').click();
  await page.getByTestId('fork-base-url').fill(standIn.baseUrl);
  await page.getByTestId('fork-model').fill('gpt-sim-4o');
  // Without a key, the server's rule refuses the request-chosen address, naming the field.
  await page.getByTestId('fork-submit').click();
  await expect(page.getByTestId('fork-error')).toContainText('apiKey');
  await page.getByTestId('fork-key').fill(KEY);
  await page.getByTestId('fork-submit').click();

  await page.waitForURL((url) => url.pathname.startsWith('/runs/') && !url.pathname.endsWith(parentId), {
    timeout: 15_000,
  });
  const childId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('forked-from')).toContainText('at turn 1');
  expect(standIn.keysReceived).toContain(KEY);
  expect(page.url()).not.toContain(KEY);
  for (const path of [
    `/api/runs/${childId}`,
    `/api/runs/${childId}/trace`,
    '/api/runs',
    `/api/runs/${parentId}/forks`,
  ]) {
    expect(await (await request.get(path)).text()).not.toContain(KEY);
  }

  // Forking that child "same as that turn" lands on the endpoint again: keys are never stored, so
  // the dialog asks for one, with the child's base URL (not a secret) filled in.
  const keysBefore = standIn.keysReceived.filter((k) => k === KEY).length;
  await page.getByTestId('fork-open').click();
  await expect(page.getByTestId('fork-vendor-select')).toHaveValue('');
  await expect(page.getByTestId('fork-dialog')).toContainText(
    'answered that turn: openai-compatible gpt-sim-4o',
  );
  await expect(page.getByTestId('fork-base-url')).toHaveValue(standIn.baseUrl);
  await page.getByTestId('fork-key').fill(KEY);
  await page.getByTestId('fork-submit').click();
  await page.waitForURL((url) => url.pathname.startsWith('/runs/') && !url.pathname.endsWith(childId), {
    timeout: 15_000,
  });
  await expect(page.getByTestId('forked-from')).toContainText(`forked from ${childId.slice(0, 8)}`, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 60_000 });
  expect(standIn.keysReceived.filter((k) => k === KEY).length).toBeGreaterThan(keysBefore);
});
