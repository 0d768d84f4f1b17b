import { expect, test } from './test';
import { startStandIns, type StandIns } from '../lib/audit/vendor-stand-ins';
import { PlaygroundPage } from './pages/playground-page';

/**
 * The key & endpoint dialog against a local OpenAI-compatible stand-in (the simulated vendor
 * behind a real HTTP server): the key reaches the endpoint, and nothing else — not the page
 * address, not the browser's storage, not the stored run.
 */
const KEY = 'sk-e2e-endpoint-dialog-canary-7f3a9c21';
let standIns: StandIns;

test.beforeAll(async () => {
  standIns = await startStandIns({ timeScale: 0.02 });
});
test.afterAll(async () => {
  await standIns?.close();
});

test('run on an OpenAI-compatible server by base URL with a typed key; the key goes nowhere else', async ({
  page,
  request,
}) => {
  const standIn = standIns.requestChosen.openai;
  const playground = new PlaygroundPage(page);
  await playground.goto();

  await page.getByTestId('endpoint-open').click();
  const dialog = page.getByTestId('endpoint-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('endpoint-key-promise')).toContainText(
    'held in server memory for that run only',
  );
  await page.getByTestId('endpoint-vendor').selectOption('openai-compatible');
  await page.getByTestId('endpoint-preset-ollama').click();
  await expect(page.getByTestId('endpoint-price-note')).toContainText('not priced');
  await page.getByTestId('endpoint-base-url').fill(standIn.baseUrl);
  await page.getByTestId('endpoint-model').fill('gpt-sim-4o');
  // First without a key: a base URL from the request needs a key from the request (the server's 400, inline).
  await page.getByTestId('endpoint-use').click();
  await playground.runButton.click();
  await expect(playground.runErrors).toContainText('baseUrl');

  await page.getByTestId('endpoint-open').click();
  await page.getByTestId('endpoint-key').fill(KEY);
  await page.getByTestId('endpoint-use').click();
  await expect(page.getByTestId('endpoint-key-state')).toContainText('held in this page');
  const runId = await playground.run();
  await expect(page.getByTestId('terminate-banner')).toBeVisible({ timeout: 60_000 });

  expect(standIn.keysReceived).toContain(KEY);
  expect(page.url()).not.toContain(KEY);
  const stored = await page.evaluate(() =>
    JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }),
  );
  expect(stored).not.toContain(KEY);
  for (const path of [`/api/runs/${runId}`, `/api/runs/${runId}/trace`, '/api/runs']) {
    expect(await (await request.get(path)).text()).not.toContain(KEY);
  }
});
