import { expect, test } from './test';
import { ComparePage, finishedRun } from './pages/compare-page';

/**
 * Two runs of the same scenario and seed, one with the retry ladder off, under a 529 on the
 * second request: /compare aligns their turns, marks turn 2 as the first divergence and lists
 * the one switched field; "Run the counterfactual" on a run page opens such a comparison.
 */
const config = (extra: Record<string, unknown> = {}) => ({
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

test('compare two runs differing by one mechanism, and run the counterfactual', async ({ page, request }) => {
  const on = await finishedRun(request, config());
  const off = await finishedRun(request, config({ recovery: { retry: { enabled: false } } }));
  const compare = new ComparePage(page);

  await compare.goto(on, off);
  await expect(compare.root).toBeVisible();
  await expect(compare.turns.first()).toHaveAttribute('data-turn', '1');
  expect(await compare.turns.count()).toBeGreaterThan(2);
  await expect(compare.divergedTurn).toHaveCount(1);
  await expect(compare.divergedTurn).toHaveAttribute('data-turn', '2');
  await expect(compare.marker).toBeVisible();
  await expect(compare.divergedTurn).toBeInViewport();
  await expect(compare.divergence).toContainText('First divergence at turn 2');
  // The turn is said once, in the heading; the line after it says what differed.
  await expect(compare.divergence).not.toContainText('Turn 2:');
  await expect(compare.configRows).toHaveCount(1);
  await expect(compare.configHeading).toHaveText('Config: 1 field differs');
  await expect(compare.configRow('recovery.retry.enabled')).toContainText('true');
  await expect(compare.configRow('recovery.retry.enabled')).toContainText('false');
  // Better is said in words, not only colour: A finished its work, B did not.
  await expect(compare.total('complete')).toContainText('▲ A');
  await expect(compare.total('errorsSeen')).toContainText('▲ A');

  // At 1440×900 the one-row config box is as tall as what it holds, not stretched to the totals' height.
  await page.setViewportSize({ width: 1440, height: 900 });
  const configBox = await page.getByTestId('compare-config').evaluate((el) => {
    const inner = [...el.children].reduce((h, child) => h + child.getBoundingClientRect().height, 0);
    return { box: el.getBoundingClientRect().height, inner };
  });
  const totals = (await page.getByTestId('compare-totals').boundingBox())!.height;
  expect(configBox.box - configBox.inner).toBeLessThan(4); // its border
  expect(configBox.box).toBeLessThan(totals / 3);

  // An unknown id says so.
  await compare.goto(on, 'no-such-run');
  await expect(page.getByTestId('compare-error')).toContainText('No run with id "no-such-run"');

  // From the run page: "Compare with…" lists the other runs, same scenario first.
  await page.goto(`/runs/${on}`);
  await expect(
    page.getByTestId('terminate-banner').or(page.getByTestId('task-verdict')).first(),
  ).toBeVisible();
  await page.getByTestId('compare-with').click();
  await page.locator(`[data-testid="compare-pick"][href*="b=${off}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?a=${on}&b=${off}$`));
  await expect(compare.divergedTurn).toHaveAttribute('data-turn', '2');

  // And the same config and seed with the retry ladder off, started and opened side by side.
  await page.goto(`/runs/${on}`);
  await expect(
    page.getByTestId('terminate-banner').or(page.getByTestId('task-verdict')).first(),
  ).toBeVisible();
  await compare.runCounterfactual('retry');
  await expect(page).toHaveURL(new RegExp(`/compare\\?a=${on}&b=`));
  await expect(compare.root).toBeVisible();
  await expect(compare.configRow('recovery.retry.enabled')).toBeVisible();
  await expect(compare.divergedTurn).toHaveAttribute('data-turn', '2');
  await page.screenshot({ path: 'test-results/compare.png', fullPage: false });
});

test('a live side is followed on its stream until it ends', async ({ page, request }) => {
  const done = await finishedRun(request, config());
  // The same seed on the real clock (about 10 s of run time at 0.3: a few seconds live).
  const created = await request.post('/api/runs', {
    data: { config: config({ clock: 'real', timeScale: 0.3 }) },
  });
  const { id: live } = (await created.json()) as { id: string };
  const compare = new ComparePage(page);
  await compare.goto(done, live);
  await expect(page.getByTestId('compare-side-b')).toContainText('running');
  await expect(compare.totals).toContainText('so far');
  // It ends on screen without a reload: same config and seed on another clock, same steps.
  await expect(page.getByTestId('compare-side-b')).toContainText('ended: end turn', { timeout: 30_000 });
  await expect(compare.divergence).toContainText(
    /No divergence: both runs did the same things in their \d+ turns/,
  );
  await expect(compare.total('complete')).toContainText('same');
});

test("a live side's run time and its turn in progress move on through a retry's wait, when no event is written", async ({
  page,
  request,
}) => {
  // Retry-After 10 s on the second request, real clock at full speed: ten seconds with no event.
  const waits = {
    rules: [
      {
        id: 'ra',
        enabled: true,
        when: { kind: 'requests', numbers: [2] },
        action: { type: 'http_error', status: 429, retryAfterSec: 10 },
      },
    ],
    tools: [],
  };
  const done = await finishedRun(request, config({ faults: waits }));
  const created = await request.post('/api/runs', {
    data: { config: config({ clock: 'real', timeScale: 1, faults: waits }) },
  });
  const { id: live } = (await created.json()) as { id: string };
  const compare = new ComparePage(page);
  await compare.goto(done, live);
  const turn2 = page.locator('[data-testid="compare-turn"][data-turn="2"]');
  await expect(turn2).toContainText('retry-after 10 s', { timeout: 20_000 });
  await expect(turn2).toContainText('so far');
  const first = await compare.runTimeOf('b');
  const turnFirst = await compare.inProgressMs(2, 'b');
  await page.waitForTimeout(2_000);
  // Two seconds on, still inside the wait: both moved on by about two seconds of run time.
  const second = await compare.runTimeOf('b');
  const turnSecond = await compare.inProgressMs(2, 'b');
  expect(second - first).toBeGreaterThan(1_200);
  expect(second - first).toBeLessThan(3_500);
  expect(turnSecond - turnFirst).toBeGreaterThan(1_200);
  await expect(page.getByTestId('compare-side-b')).toContainText('ended: end turn', { timeout: 40_000 });
});

test('on a phone (390 px) nothing is cut off or sticks out of its box', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const on = await finishedRun(request, config());
  const off = await finishedRun(request, config({ recovery: { retry: { enabled: false } } }));
  const compare = new ComparePage(page);
  await compare.goto(on, off);
  await expect(compare.root).toBeVisible();
  await expect(page.getByTestId('compare-side-b')).toContainText('ended: model error');
  expect(await compare.clippedOrOutside()).toEqual([]);
});

test("a takeover's turns say which vendor answered them; a fork says whose fork it is and which turns it copied", async ({
  page,
  request,
}) => {
  const base = { provider: { vendor: 'sim-anthropic', thinking: true }, clock: 'virtual', seed: 13 };
  const takeover = await finishedRun(request, {
    ...base,
    swaps: [
      { atTurn: 2, vendor: 'sim-openai', model: '' },
      { atTurn: 3, vendor: 'sim-anthropic', model: '' },
    ],
  });
  const plain = await finishedRun(request, base);
  const compare = new ComparePage(page);
  await compare.goto(takeover, plain);
  const origin = (turn: number, side: 'a' | 'b') =>
    page.locator(
      `[data-testid="compare-turn"][data-turn="${turn}"] [data-testid="turn-side-${side}"] [data-testid="turn-origin"]`,
    );
  await expect(origin(2, 'a')).toHaveText('on sim-openai gpt-sim-4o');
  await expect(origin(1, 'a')).toHaveCount(0);
  await expect(origin(3, 'a')).toHaveCount(0);
  await expect(origin(2, 'b')).toHaveCount(0);

  const created = await request.post('/api/runs', {
    data: { fork: { runId: plain, atTurn: 2, provider: 'sim-openai' } },
  });
  expect(created.status()).toBe(201);
  const { id: fork } = (await created.json()) as { id: string };
  await compare.goto(plain, fork);
  await expect(page.getByTestId('compare-side-b')).toContainText('ended: end turn', { timeout: 30_000 });
  await expect(page.getByTestId('compare-forked-from')).toHaveText('fork of run A after turn 2');
  await expect(origin(1, 'b').first()).toHaveText('copied from the parent run');
  await expect(origin(2, 'b').first()).toHaveText('copied from the parent run');
  await expect(origin(3, 'b')).toHaveCount(0);
  // Its run time and cost count the copied turns, and say so (the parent's side says nothing).
  await expect(compare.total('durationMs').getByTestId('copied-note')).toHaveCount(1);
  await expect(compare.total('durationMs')).toContainText(
    /incl\. 2 copied turns: [\d.]+ m?s\s*after the fork: [\d.]+ m?s/,
  );
  await expect(compare.total('usd')).toContainText('copied');
});

test('two real-clock runs of the same config and seed: nothing is judged better; differing only in the system prompt, the page says the simulated model does not read prompts', async ({
  page,
  request,
}) => {
  const real = { provider: { vendor: 'sim-anthropic' }, clock: 'real', timeScale: 0.05, seed: 11 };
  const [a, b] = [await finishedRun(request, real), await finishedRun(request, real)];
  const compare = new ComparePage(page);
  await compare.goto(a, b);
  await expect(compare.total('usd')).toContainText('same');
  await expect(page.locator('[data-testid="totals-row"]:not([data-better=""])')).toHaveCount(0);
  await expect(page.getByTestId('prompt-only-note')).toHaveCount(0);
  // The two run times come from the machine's clock: not judged from one pair.
  const times = await compare.total('durationMs').locator('td').allTextContents();
  if (times[1] !== times[2])
    await expect(compare.total('durationMs')).toContainText('machine’s own variation');

  const terse = await finishedRun(request, { ...real, system: 'You are a terse agent. Do the work.' });
  await compare.goto(a, terse);
  await expect(page.getByTestId('prompt-only-note')).toContainText(
    'The simulated model does not read prompts',
  );
  await expect(page.getByTestId('prompt-only-note')).toContainText('differ only in their system prompt');
  await expect(page.locator('[data-testid="totals-row"]:not([data-better=""])')).toHaveCount(0);
  await expect(compare.total('usd')).toContainText('only the prompts’ own tokens differ');
});
