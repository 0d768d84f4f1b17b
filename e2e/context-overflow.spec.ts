import { expect, test } from './test';
import { ContextPanelPage } from './pages/context-panel';
import { PlaygroundPage } from './pages/playground-page';

/**
 * A context that keeps growing on a 16k window, with proactive compaction off: the vendor
 * answers "prompt is too long", the waterfall's first rung (micro-compact) recovers, and the
 * gauge, the stepper and the "what was sent" view show it.
 */
test('an overflow on a small window: the gauge, a waterfall rung and what was sent', async ({ page }) => {
  const playground = new PlaygroundPage(page);
  const context = new ContextPanelPage(page);
  await playground.goto();
  await playground.configure({
    scenario: 'growing-context',
    vendor: 'sim-anthropic',
    preset: 'codesmith',
    clock: 'virtual',
  });
  await page.getByTestId('model-select').selectOption('claude-sim-16k');
  const proactive = page.getByTestId('recovery-compaction.proactive');
  if (!(await proactive.isVisible()))
    await page.getByTestId('recovery-group-compaction').locator('summary').click();
  await proactive.setChecked(false);
  await playground.run();
  const end = await playground.waitForEnd();
  expect(end).toEqual({ reason: 'end_turn', complete: true });

  // The gauge: one column per request, a compaction marker where the waterfall ran.
  await expect(context.gauge).toBeVisible();
  expect(await context.gaugeBars.count()).toBeGreaterThan(15);
  await expect(context.gaugeMarkers.first()).toBeVisible();

  // The stepper: prompt too long, rung 1 applied with tokens before → after, then accepted.
  await expect(context.recoveries.first()).toHaveAttribute('data-outcome', 'recovered');
  await expect(context.rung('micro_compact')).toHaveAttribute('data-ok', 'yes');
  await expect(context.rung('micro_compact')).toContainText(/\d[\d,]* → \d[\d,]*/);
  await expect(context.rung('summary')).toHaveAttribute('data-reached', 'no');

  // What the last request sent: older results as stubs, the log keeps them whole.
  await expect(context.sentView).toBeVisible();
  expect(await context.sentStubs.count()).toBeGreaterThan(10);
  await expect(context.sentStubs.first()).toContainText(/stub since turn \d+ · the log keeps all/);
  await expect(context.sentStubs.first()).toContainText('Older tool result cleared to save context');
  // The first request sent the whole (short) conversation as it is.
  await context.selectRequest(0);
  await expect(context.sentMessages).toHaveCount(1);
  await expect(context.sentView).toContainText('task');
  // The turn cards say which results went out as stubs.
  await expect(page.getByText(/sent to the model as a stub since turn \d+/).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/context-overflow.png', fullPage: false });
});
