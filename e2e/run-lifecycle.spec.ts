import { readFileSync } from 'node:fs';
import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';
import { RunPage } from './pages/run-page';
import { RunsPage } from './pages/runs-page';

/** The spine, as a person uses it: run, watch, reload, revisit, export, import. */

test('runs the default scenario and draws each turn as it arrives', async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', timeScale: 0.3 });
  await playground.run();
  await playground.expectStatus(/running|waiting|recovering/i);
  await expect(playground.turnCard(1)).toBeVisible();
  const end = await playground.waitForEnd();
  expect(end).toEqual({ reason: 'end_turn', complete: true });
  expect(await playground.turnCards.count()).toBeGreaterThanOrEqual(5);
  expect(await playground.toolCalls.count()).toBeGreaterThanOrEqual(4);
  await playground.expectStatus(/completed|done/i);
});

test('a reload in the middle of a run loses nothing: the run continues and every turn is there', async ({
  page,
  request,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-openai', timeScale: 1 });
  const id = await playground.run();
  const run = new RunPage(page);
  await run.goto(id);
  await expect(run.turnCard(2)).toBeVisible({ timeout: 30_000 });
  await page.reload();
  const end = await run.waitForEnd();
  expect(end.complete).toBe(true);

  // Compare what the page shows with the server's log of the same run.
  const trace = (await (await request.get(`/api/runs/${id}/trace`)).text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const iterations = new Set(trace.filter((e) => e.event === 'llm_call').map((e) => e.iteration));
  await expect(run.turnCards).toHaveCount(iterations.size);
  const shown = await run.turnCards.evaluateAll((cards) =>
    cards.map((c) => Number(c.getAttribute('data-iteration'))),
  );
  expect(shown).toEqual([...iterations].sort((a, b) => a - b));
  await expect(run.toolCalls).toHaveCount(trace.filter((e) => e.event === 'tool_call').length);
});

test('an earlier run opens by its URL exactly as it ended, and its trace downloads', async ({
  page,
  browser,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', clock: 'virtual', seed: 5 });
  const id = await playground.run();
  await playground.waitForEnd();
  const turns = await playground.turnCards.count();

  const other = await browser.newPage();
  const run = new RunPage(other);
  await run.goto(id);
  expect(await run.waitForEnd()).toEqual({ reason: 'end_turn', complete: true });
  await expect(run.turnCards).toHaveCount(turns);
  const jsonl = await run.downloadTraceText();
  const events = jsonl
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(events[0].event).toBe('run_start');
  expect(events.at(-1)).toMatchObject({ event: 'terminate', complete: true });
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));

  const runs = new RunsPage(other);
  await runs.goto();
  await expect(runs.row(id)).toBeVisible();
  await other.close();
});

test('a plain tracer JSONL imports and is drawn as a run', async ({ page }) => {
  const runs = new RunsPage(page);
  await runs.goto();
  await runs.importTrace(readFileSync('lib/store/fixtures/tracer-trace.jsonl', 'utf8'));
  const run = new RunPage(page);
  await run.waitForEnd();
  expect(await run.turnCards.count()).toBeGreaterThanOrEqual(2);
  await expect(run.toolCalls.first()).toBeVisible();
  // The trace carries no Loop Lab config: nothing is offered to run again, and the page says why.
  await expect(page.getByTestId('no-config-note')).toContainText('no Loop Lab config');
  await expect(page.getByTestId('rerun-button')).toHaveCount(0);
  await expect(page.getByTestId('open-in-playground')).toHaveCount(0);
});

test('the runs list shows why a run failed in full, not clipped', async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  // Three 529s, then a 429 on the fourth and last attempt: the retry budget runs out.
  await playground.configure({
    vendor: 'sim-anthropic',
    clock: 'virtual',
    faults: ['overloaded-x3', 'rate-limit-7s'],
  });
  const id = await playground.run();
  expect((await playground.waitForEnd()).reason).toBe('retries_exhausted');
  const runs = new RunsPage(page);
  await runs.goto();
  const reason = runs.row(id).getByTestId('runs-outcome-reason');
  await expect(reason).toHaveText('retries_exhausted');
  expect(await reason.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test('the runs list tells a lesson’s two runs apart and shows every vendor a swapped run used', async ({
  page,
  request,
}) => {
  // A lesson plays its mechanism-on and mechanism-off runs on the same preset.
  const played = await (
    await request.post('/api/lessons/partial-vs-empty/play', { data: { timeScale: 0.01 } })
  ).json();
  // A run swapped twice by its config: Anthropic, then OpenAI from turn 2, then DeepSeek from turn 3.
  const created = await request.post('/api/runs', {
    data: {
      config: {
        provider: { vendor: 'sim-anthropic' },
        clock: 'virtual',
        swaps: [
          { atTurn: 2, vendor: 'sim-openai', model: '' },
          { atTurn: 3, vendor: 'sim-deepseek', model: '' },
        ],
      },
    },
  });
  const swapped = (await created.json()).id as string;
  const runs = new RunsPage(page);
  await runs.goto();
  await expect(page.getByRole('columnheader', { name: /overrides/i })).toBeVisible();

  const on = runs.row(played.on);
  const off = runs.row(played.off);
  await expect(on.locator('[data-col="preset"]')).toHaveText(
    await off.locator('[data-col="preset"]').innerText(),
  );
  await expect(on.locator('[data-col="overrides"]')).toHaveText('none');
  await expect(off.locator('[data-col="overrides"]')).toContainText('partial-kept off');

  const cell = runs.row(swapped).locator('[data-col="vendorModel"] > span');
  await expect(cell).toHaveAttribute('data-stops', '3', { timeout: 30_000 });
  // Every vendor in order, on the row itself (not only in a tooltip), and each with its model in the tooltip.
  await expect(cell.getByTestId('runs-vendors')).toHaveText('sim-anthropic → sim-openai → sim-deepseek');
  expect(await cell.getByTestId('runs-vendors').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(
    true,
  );
  await expect(cell).toHaveAttribute(
    'title',
    /^3 vendors \/ models in order:\nsim-anthropic \/ \S+\nsim-openai \/ \S+\nsim-deepseek \/ \S+$/,
  );
});
