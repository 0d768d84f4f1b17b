import { expect, test } from './test';
import { startCountingEndpoint } from '../lib/sweeps/real-endpoint.testkit';
import { SweepsPage } from './pages/sweeps-page';

/** A sweep as a person runs one: start, watch the bar move, read the table and a chart, drill in. */

test('starts a sweep, the progress bar moves, the table and charts arrive, a cell opens its runs', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const sweeps = new SweepsPage(page);
  await sweeps.goto();
  // The default form: CodeSmith and naive × no faults and overloaded ×3 × seeds 1–20.
  await expect(page.getByTestId('sweep-run-count')).toHaveText('80 runs on the virtual clock');
  await sweeps.start({ seedTo: 40 });
  await expect(page.getByTestId('sweep-done')).toContainText('/ 160 runs');

  // The bar moves: some runs done while the sweep still runs.
  await expect.poll(async () => sweeps.done(), { timeout: 120_000 }).toBeGreaterThan(0);
  const seenRunning = (await sweeps.progress.getAttribute('data-status')) === 'running';
  await sweeps.waitForStatus('completed', 180_000);
  expect(seenRunning || (await sweeps.done()) === 160).toBe(true);
  await expect(page.getByTestId('sweep-done')).toContainText('160 / 160 runs');

  // One row per configuration × fault plan, the best value per column marked.
  await expect(sweeps.rows).toHaveCount(4);
  await expect(page.locator('[data-testid="sweep-table"] td[data-best]').first()).toBeVisible();
  const naiveOverloaded = page.locator(
    '[data-testid="sweep-row"][data-key="naive|fix-failing-test|overloaded-x3|sim-anthropic"]',
  );
  await expect(naiveOverloaded).toContainText('0 %');
  // Every run of that cell failed at the first 529: quick and free, but not the best on effort.
  for (const col of ['median_ms', 'p95_ms', 'mean_tokens', 'mean_usd'])
    await expect(naiveOverloaded.locator(`td[data-col="${col}"][data-best]`)).toHaveCount(0);
  // Nor a run time of 0 ms: no loop completed, so the cell has no run time and says why.
  for (const col of ['median_ms', 'p95_ms']) {
    await expect(naiveOverloaded.locator(`td[data-col="${col}"][data-blank]`)).toHaveAttribute(
      'title',
      /no run in this cell completed its loop/,
    );
    await expect(naiveOverloaded.locator(`td[data-col="${col}"]`)).toContainText('—');
  }

  // Charts: dots drawn for runs.
  await expect(
    page.getByTestId('chart-run-time').locator('svg .recharts-scatter-symbol').first(),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('chart-completion').locator('svg')).toBeVisible();
  // Each bar carries its rate and interval in words, so a cell that never completed is not a blank.
  await expect(page.getByTestId('chart-completion').getByTestId('band-caption')).toHaveCount(4);
  await expect(page.getByTestId('chart-completion')).toContainText(/0 % \(0–\d+\)/);
  // The row labels under a chart stay in their own bands: no label runs into the next one.
  const ticks = await page
    .getByTestId('chart-run-time')
    .locator('.recharts-xAxis .recharts-cartesian-axis-tick')
    .evaluateAll((els) =>
      els.map((el) => el.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })),
    );
  expect(ticks).toHaveLength(4);
  for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.left).toBeGreaterThanOrEqual(ticks[i - 1]!.right);

  // On a phone the sweep's name is read whole: the export buttons wrap below it, not over it.
  await page.setViewportSize({ width: 390, height: 844 });
  const name = page.getByTestId('sweep-name');
  await expect(name).toHaveText('codesmith vs naive · 160 runs');
  expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Drill in: the cell's runs, then one run's own page.
  await naiveOverloaded.click();
  await expect(sweeps.cellRuns).toHaveCount(40);
  await sweeps.cellRuns.first().click();
  await page.waitForURL(/\/runs\/sweep-/);
  await expect(page.getByTestId('run-status')).toBeVisible();
});

test('a reload reattaches to a running sweep, and cancel stops it', async ({ page }) => {
  test.setTimeout(240_000);
  const sweeps = new SweepsPage(page);
  await sweeps.goto();
  await sweeps.start({ seedTo: 2000 });
  await expect.poll(async () => sweeps.done(), { timeout: 120_000 }).toBeGreaterThan(0);
  await page.reload();
  await expect(sweeps.progress).toHaveAttribute('data-status', 'running');
  // The reloaded page shows the run count again once its stream's first frame is in.
  await expect.poll(async () => sweeps.done(), { timeout: 30_000 }).toBeGreaterThan(0);
  await page.getByTestId('sweep-cancel').click();
  await sweeps.waitForStatus('cancelled', 60_000);
  expect(await sweeps.done()).toBeLessThan(8000);
});

test('a sweep started while another runs waits its turn and says for which sweep', async ({ page }) => {
  test.setTimeout(240_000);
  const sweeps = new SweepsPage(page);
  await sweeps.goto();
  const first = await sweeps.start({ seedTo: 2000 });
  // Running, not still waiting for the worker pool to start: only then does a second sweep wait for it.
  await sweeps.waitForStatus('running');
  await sweeps.goto();
  const second = await sweeps.start({ seedTo: 2 });
  await sweeps.waitForStatus('queued', 30_000);
  await expect(page.getByTestId('sweep-queued')).toHaveText(
    `queued: waiting for sweep ${first} to finish (next in line; one sweep runs at a time)`,
  );
  // A queued sweep can be cancelled: it leaves the line without running.
  await page.getByTestId('sweep-cancel').click();
  await sweeps.waitForStatus('cancelled', 30_000);
  expect(await sweeps.done()).toBe(0);
  await page.goto(`/sweeps/${first}`);
  await sweeps.waitForStatus('running');
  await page.getByTestId('sweep-cancel').click();
  await sweeps.waitForStatus('cancelled', 60_000);
  expect(second).not.toBe(first);
});

test('a real-endpoint sweep says after a reload what it said live: the 429 pause, what it spent of its cap, why it stopped', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  // An OpenAI-compatible server written for the tests: its second request is a 429 with Retry-After 10 min (12 s of wall time at timeScale 0.02).
  const endpoint = await startCountingEndpoint({ rateLimitAt: 2, retryAfterS: 600 });
  try {
    const created = await request.post('/api/sweeps', {
      data: {
        name: 'capped real endpoint',
        configurations: [{ id: 'codesmith', preset: 'codesmith' }],
        vendors: [],
        endpoints: [
          { id: 'local', vendor: 'openai-compatible', baseUrl: endpoint.url, keySource: 'request' },
        ],
        models: ['gpt-4o-mini'],
        seeds: { from: 1, to: 12 },
        timeScale: 0.02,
        budgets: { maxIterations: 30, maxCostUsd: 0.01, maxRunMs: 600_000, maxAttempts: 50 },
        costCapUsd: 0.06,
        apiKeys: { local: 'sk-e2e-sweep-state-key-4410' },
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const sweeps = new SweepsPage(page);
    await page.goto(`/sweeps/${id}`);
    await sweeps.waitForStatus('running', 10_000);
    await sweeps.waitForStatus('stopped', 120_000);
    const live = {
      spent: await page.getByTestId('sweep-spent').textContent(),
      message: await page.getByTestId('sweep-message').textContent(),
      notes: await page.getByTestId('sweep-notes').textContent(),
    };
    expect(live.spent).toMatch(/^\$[\d.]+ spent of the \$0\.060 cap$/);
    expect(live.message).toMatch(/^cost cap: the sweep stopped before run \d+ of 12/);
    expect(live.notes).toMatch(/endpoint "local" paused for 10 min: it answered 429 with Retry-After 10 min/);
    await page.reload();
    await sweeps.waitForStatus('stopped');
    await expect(page.getByTestId('sweep-spent')).toHaveText(live.spent!);
    await expect(page.getByTestId('sweep-message')).toHaveText(live.message!);
    await expect(page.getByTestId('sweep-notes')).toHaveText(live.notes!);
  } finally {
    await endpoint.stop();
  }
});

test("a sweep's paired comparison opens one seed's two runs in /compare, with the rows' paired result beside them", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const created = await request.post('/api/sweeps', {
    data: {
      name: 'paired to compare',
      configurations: [
        { id: 'codesmith', preset: 'codesmith' },
        { id: 'naive', preset: 'naive' },
      ],
      seeds: { from: 1, to: 12 },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const sweeps = new SweepsPage(page);
  await page.goto(`/sweeps/${id}`);
  await sweeps.waitForStatus('completed', 180_000);
  const sweepSide = page.getByTestId('paired-comparison').first();
  // The paired result is drawn with the table, which may arrive a frame after the status says completed.
  await expect(sweepSide.getByTestId('paired-metric')).toHaveCount(4);
  const lines = await sweepSide.getByTestId('paired-metric').allTextContents();
  const better = await sweepSide
    .getByTestId('paired-metric')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-better')));
  expect(lines).toHaveLength(4);
  await sweepSide.getByTestId('paired-compare-link').click();
  await page.waitForURL(/\/compare\?a=.+&b=.+&sweep=/);
  const paired = page.getByTestId('compare-paired');
  await expect(paired).toHaveAttribute('data-found', 'yes');
  await expect(paired).toContainText('Paired over the 12 seeds both rows');
  // The same finding as the sweep's, line for line; ▲ only where the sweep's test put it.
  const shown = paired.getByTestId('paired-metric');
  await expect(shown).toHaveCount(4);
  expect((await shown.allTextContents()).map((t) => t.replace(/^▲ [AB] /, '▲ '))).toEqual(lines);
  expect(await shown.evaluateAll((els) => els.map((el) => el.getAttribute('data-better')))).toEqual(better);
  await expect(page.getByTestId('compare-page')).toBeVisible();

  // The other row's run of another seed is no pair: the page says so, and shows no finding.
  const url = new URL(page.url());
  const runs = (await (await request.get(`/api/sweeps/${id}/runs`)).json()) as {
    run_id: string;
    key: string;
    seed: number;
  }[];
  const a = url.searchParams.get('a')!;
  const b = runs.find((r) => r.run_id === url.searchParams.get('b'))!;
  const other = runs.find((r) => r.key === b.key && r.seed !== b.seed)!;
  await page.goto(`/compare?a=${a}&b=${other.run_id}&sweep=${id}`);
  await expect(page.getByTestId('compare-paired')).toHaveAttribute('data-found', 'no');
  await expect(page.getByTestId('compare-paired')).toContainText('ran on different seeds');
  await expect(page.getByTestId('compare-paired').getByTestId('paired-metric')).toHaveCount(0);
});
