import { expect, test, type Page } from './test';
import { expectAccessible } from './pages/axe-scan';
import { finishedRun } from './pages/compare-page';
import { PlaygroundPage } from './pages/playground-page';
import { RunPage } from './pages/run-page';
import { SweepsPage } from './pages/sweeps-page';

/**
 * Every page in the states people see, scanned with axe-core's WCAG 2.0/2.1 A and AA rules, in
 * the light and the dark theme. A failure lists each broken rule, its impact and the selectors.
 *
 * Each state is reached once and scanned in both themes there (`expectAccessibleInBothThemes`):
 * the themes are CSS alone (app/globals.css keys every colour on `data-theme` and the system
 * preference), so switching in place shows the very page a load in that theme shows. Reaching
 * every state twice, once a theme, cost a second minute of waiting on the same runs and sweep.
 */

const THEME_KEY = 'loop-lab-theme';
const THEMES = ['light', 'dark'] as const;

/**
 * Scans the page as it is in each theme. The switch is what the theme toggle does (the saved
 * choice and `data-theme` on <html>), with the system preference set to match, as a person who
 * uses that theme has it.
 */
async function expectAccessibleInBothThemes(page: Page, where: string): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate(
      ([key, value]) => {
        localStorage.setItem(key!, value!);
        document.documentElement.dataset.theme = value!;
      },
      [THEME_KEY, theme],
    );
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectAccessible(page, `${where} (${theme} theme)`);
  }
}

/**
 * A run that waits 240 s of run time (2 min of wall time) on a 429's Retry-After before its second
 * request: room, on a loaded machine, for the four scans (two states, two themes each) that must
 * see it waiting. It is aborted once they are done, so the length of the wait costs nothing.
 */
const WAITING_RUN = {
  provider: { vendor: 'sim-anthropic' },
  clock: 'real',
  timeScale: 0.5,
  seed: 3,
  faults: {
    rules: [
      {
        id: 'rl',
        enabled: true,
        when: { kind: 'requests', numbers: [2] },
        action: { type: 'http_error', status: 429, retryAfterSec: 240 },
      },
    ],
    tools: [],
  },
};

const VIRTUAL_RUN = (extra: Record<string, unknown> = {}) => ({
  provider: { vendor: 'sim-anthropic' },
  clock: 'virtual',
  seed: 11,
  faults: {
    rules: [
      {
        id: 'f',
        enabled: true,
        when: { kind: 'requests', numbers: [2] },
        action: { type: 'http_error', status: 529 },
      },
    ],
    tools: [],
  },
  ...extra,
});

/**
 * Opens every page of the test in `theme` (what the theme toggle stores, set before the first
 * paint), with the system preference to match. Two tests open in each, so both saved themes are
 * seen to apply on load.
 */
async function openInTheme(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_KEY, theme]);
}

async function expectOpenedIn(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

test('playground idle (and its phone drawer), a run mid-flight (waiting on a Retry-After) and finished, its inspector and Fork…, the runs list', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await openInTheme(page, 'light');
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await expect(playground.scenarioSelect.locator('option').first()).toBeAttached();
  await expectOpenedIn(page, 'light');
  await expectAccessibleInBothThemes(page, 'playground, idle');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('controls-toggle').click();
  await expect(page.getByTestId('controls')).toHaveAttribute('data-drawer', 'open');
  await expectAccessibleInBothThemes(page, 'playground at 390 px, controls drawer open');
  await page.setViewportSize({ width: 1280, height: 900 });

  const created = await request.post('/api/runs', { data: { config: WAITING_RUN } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // The playground reattached to the live run: fault toggles live, "Swap to…" on screen.
  await page.goto(`/?run=${encodeURIComponent(id)}`);
  await expect(page.getByTestId('run-status-reason')).toContainText(/waiting/, { timeout: 30_000 });
  await expect(page.getByTestId('swap-control')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'playground, a run waiting on a retry');

  const run = new RunPage(page);
  await run.goto(id);
  await expect(page.getByTestId('run-status-reason')).toContainText(/waiting/, { timeout: 30_000 });
  await expect(run.ladderSteps.first()).toBeVisible();
  await expectAccessibleInBothThemes(page, 'run page, waiting on a retry');

  // Done with the wait: stop that run, and scan a finished one (the virtual clock ends it at once).
  expect((await request.post(`/api/runs/${id}/control`, { data: { action: 'abort' } })).status()).toBe(202);
  await run.goto(await finishedRun(request, VIRTUAL_RUN()));
  await run.waitForEnd(30_000);
  await expectAccessibleInBothThemes(page, 'run page, finished');
  await page.getByRole('button', { name: 'Turn 2', exact: true }).click();
  await expect(run.inspector).toBeVisible();
  await expectAccessibleInBothThemes(page, 'run page, inspector open on a turn');
  await page.getByTestId('fork-open').click();
  await expect(page.getByTestId('fork-dialog')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'run page, Fork… open');

  await page.goto('/runs');
  await expect(page.getByTestId('runs-row').first()).toBeVisible();
  await expectAccessibleInBothThemes(page, '/runs');
});

test('sweeps: the form, and a finished small sweep with its table and charts', async ({ page }) => {
  test.setTimeout(240_000);
  await openInTheme(page, 'dark');
  const sweeps = new SweepsPage(page);
  await sweeps.goto();
  await expect(page.getByTestId('sweep-start')).toBeEnabled();
  await expectOpenedIn(page, 'dark');
  await expectAccessibleInBothThemes(page, '/sweeps, the form');

  await sweeps.start({ seedTo: 2 });
  await sweeps.waitForStatus('completed', 150_000);
  await expect(
    page.getByTestId('chart-run-time').locator('svg .recharts-scatter-symbol').first(),
  ).toBeVisible({ timeout: 30_000 });
  await expectAccessibleInBothThemes(page, 'a finished sweep');
});

test('compare two runs', async ({ page, request }) => {
  const on = await finishedRun(request, VIRTUAL_RUN());
  const off = await finishedRun(request, VIRTUAL_RUN({ recovery: { retry: { enabled: false } } }));
  await openInTheme(page, 'light');
  await page.goto(`/compare?a=${on}&b=${off}`);
  await expect(page.getByTestId('compare-divergence')).toBeVisible();
  await expectOpenedIn(page, 'light');
  await expectAccessibleInBothThemes(page, '/compare');
});

test('lessons index, a lesson after Play, the glossary', async ({ page }) => {
  test.setTimeout(180_000);
  await openInTheme(page, 'dark');
  await page.goto('/lessons');
  await expect(page.getByTestId('lesson-item').first()).toBeVisible();
  await expectOpenedIn(page, 'dark');
  await expectAccessibleInBothThemes(page, '/lessons');

  await page.goto('/lessons/retry-ladder?scale=0.05');
  await page.getByTestId('lesson-play').click();
  await expect(page.getByTestId('lesson-report')).toBeVisible({ timeout: 45_000 });
  await expectAccessibleInBothThemes(page, 'a lesson after Play');

  await page.goto('/glossary');
  await expect(page.locator('main, h1').first()).toBeVisible();
  await expectAccessibleInBothThemes(page, '/glossary');
});
