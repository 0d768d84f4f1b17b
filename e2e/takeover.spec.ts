import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';

/** A takeover demo as a person does it: swap vendors mid-run, read what travelled. */

test('swap from Anthropic to the DeepSeek-style vendor mid-run: the takeover panel and the vendor lane', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({ vendor: 'sim-anthropic', timeScale: 1 });
  await playground.run();
  await expect(playground.turnCard(1)).toBeVisible({ timeout: 30_000 });

  // The vendor picker no longer pretends: it is fixed for the run, and "Swap to…" is live.
  await expect(playground.vendorSelect).toBeDisabled();
  const swap = page.getByTestId('swap-control');
  await expect(swap).toBeVisible();
  await page.getByTestId('swap-vendor-select').selectOption('sim-deepseek');
  await page.getByTestId('swap-button').click();

  const panel = page.getByTestId('takeover-panel');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel).toContainText('sim-anthropic/claude-sim-sonnet');
  await expect(panel).toContainText('sim-deepseek/deepseek-sim-reasoner');
  await expect(page.getByTestId('takeover-dropped')).toContainText(/thinking/, { timeout: 30_000 });
  await expect(page.getByTestId('takeover-carried')).toContainText('(reasoning omitted)');
  await page.getByTestId('naive-toggle').click();
  await expect(page.getByTestId('naive-verdict')).toContainText(
    '400 invalid_request_error: The reasoning_content in the thinking mode must be passed back to the API.',
  );

  const lane = page.getByTestId('vendor-lane');
  await expect(lane.locator('[data-testid="vendor-segment"][data-vendor="sim-anthropic"]')).toHaveCount(1);
  await expect(lane.locator('[data-testid="vendor-segment"][data-vendor="sim-deepseek"]')).toHaveCount(1, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('waterfall-marker').and(page.locator('[data-kind="swap"]'))).toHaveCount(1);

  const end = await playground.waitForEnd();
  expect(end).toEqual({ reason: 'end_turn', complete: true });
  // Finished: the header no longer says anyone is answering now.
  await expect(page.getByText(/last answered by/)).toBeVisible();
  await expect(page.getByText(/answering now/)).toHaveCount(0);
  await expect(swap).toBeHidden();
});

/** One event of a run's log, as its trace gives it: the fields this spec reads. */
type LogEvent = { event: string; seq: number; [field: string]: unknown };
type Report = LogEvent & {
  dropped: { kind: string; detail: string }[];
  as_is?: string[];
  naive?: { accepted: boolean; status?: number };
};
type Outcome = LogEvent & {
  outcome: 'accepted' | 'refused' | 'failed';
  vendor: string;
  model: string;
  status?: number;
  vendor_type?: string;
  message?: string;
};

/** A vendor's message as a sentence of the panel ends it (its own full stop dropped). */
const unstop = (message: string) => message.replace(/\.\s*$/, '');

const CASES = [
  { from: 'sim-anthropic', to: 'sim-openai-responses', model: 'gpt-sim-5', naive: true },
  { from: 'sim-anthropic', to: 'sim-openai-responses', model: 'gpt-sim-5', naive: false },
  { from: 'sim-openai-responses', to: 'sim-anthropic', model: 'claude-sim-sonnet', naive: true },
  { from: 'sim-openai-responses', to: 'sim-anthropic', model: 'claude-sim-sonnet', naive: false },
] as const;

for (const c of CASES) {
  test(`swap ${c.from} → ${c.to} ${c.naive ? 'naively' : 'handled'}: the panel says what was sent and what came back, as the run's events record it`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(180_000);
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await playground.configure({ vendor: c.from, timeScale: 3 });
    const id = await playground.run();
    await expect(playground.turnCard(1)).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('swap-vendor-select').selectOption(c.to);
    await page.getByTestId('swap-naive-toggle').setChecked(c.naive);
    await page.getByTestId('swap-button').click();

    const card = page.getByTestId('takeover-panel').getByTestId('takeover-swap').first();
    const answer = card.getByTestId('takeover-answer');
    await expect(answer).toHaveAttribute('data-outcome', /^(accepted|refused|failed)$/, { timeout: 60_000 });
    await playground.waitForEnd(120_000);

    // The run's own log, from the server.
    const log = (await (await request.get(`/api/runs/${id}/trace`)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogEvent);
    const swap = log.find((e) => e.event === 'swap' && e.cause === 'control') as LogEvent & {
      handling: { naive: boolean };
    };
    const report = log.find((e) => e.event === 'takeover_report' && e.seq > swap.seq) as Report;
    const outcome = log.find((e) => e.event === 'takeover_outcome' && e.seq > report.seq) as Outcome;
    expect(swap.handling.naive).toBe(c.naive);
    expect(outcome).toMatchObject({ vendor: c.to, model: c.model });
    // The strict vendors refuse these naive handovers and take the handled ones.
    expect(outcome.outcome).toBe(c.naive ? 'refused' : 'accepted');
    const engineRecord = log.find(
      (e) => e.seq > outcome.seq && ((e.event === 'llm_call' && !e.background) || e.event === 'model_error'),
    );
    expect(engineRecord?.event).toBe(outcome.outcome === 'accepted' ? 'llm_call' : 'model_error');

    // What came back, at the top of the card and in the status line under "Swap to…".
    await expect(answer).toHaveAttribute('data-outcome', outcome.outcome);
    await expect(answer).toContainText(
      `${outcome.vendor}/${outcome.model} ${outcome.outcome} the first request after the swap`,
    );
    const status = page.getByTestId('swap-outcome');
    if (outcome.outcome === 'refused') {
      const error = `${outcome.status} ${outcome.vendor_type}: ${unstop(outcome.message!)}`;
      expect(engineRecord).toMatchObject({ status: outcome.status, message: outcome.message });
      await expect(answer).toContainText(error);
      await expect(status).toHaveAttribute('data-tone', 'fail');
      await expect(status).toContainText(`${c.to} refused its first request with ${error}`);
    } else {
      await expect(status).toHaveAttribute('data-tone', 'ok');
      await expect(status).toContainText(`${c.to} accepted its first request`);
    }

    // What was sent: the handling, and the report's own lists.
    await expect(card.getByTestId('takeover-handling')).toHaveText(
      c.naive ? 'naive: history sent as it was' : 'handled',
    );
    const asIs = report.as_is ?? [];
    await expect(card.getByTestId('takeover-as-is').locator('li')).toHaveCount(asIs.length);
    for (const entry of asIs) await expect(card.getByTestId('takeover-as-is')).toContainText(entry);
    const droppedKinds = new Set(report.dropped.map((d) => `${d.kind}\u0000${d.detail}`)).size;
    await expect(card.getByTestId('takeover-dropped').locator('li')).toHaveCount(droppedKinds);
    const why = (await card.getByTestId('why-line').allInnerTexts()).join('\n');
    if (c.naive) {
      // Nothing on the card calls the request sent a counterfactual, or says a safeguard changed it.
      expect(asIs.length).toBeGreaterThan(0);
      expect(why).toContain('the history went as it was (naive takeover)');
      for (const entry of asIs) expect(why).toContain(entry);
      await expect(card).not.toContainText('would have been');
      await expect(card).not.toContainText('foreign thinking dropped');
      await expect(card.getByTestId('naive-toggle')).toHaveCount(0);
      await expect(card.getByTestId('takeover-answer')).toContainText(
        'the history sent as it was (naive takeover)',
      );
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: testInfo.outputPath(`naive-${c.from}-to-${c.to}.png`) });
    } else {
      expect(report.dropped.length).toBeGreaterThan(0);
      expect(why).toContain(`handled: `);
      expect(why).toContain(`${report.dropped.length} item${report.dropped.length === 1 ? '' : 's'} dropped`);
      expect(report.naive).toMatchObject({ accepted: false });
      expect(why).toContain(`it would have been refused with ${report.naive!.status}`);
      await expect(card.getByTestId('naive-toggle')).toBeVisible();
    }
  });
}
