import { expect, test } from './test';
import { PlaygroundPage } from './pages/playground-page';

/**
 * The output cap under s11: a model that writes past any cap. The first cut answer is resent
 * with the escalated cap (not kept), the next ones are continued; each step is drawn on its
 * turn card with its one-line why and the prompt that was sent.
 */
test('output cap: escalation then continuations, drawn on the turn cards', async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await playground.configure({
    policy: 'long-output',
    vendor: 'sim-anthropic',
    preset: 's11',
    clock: 'virtual',
  });
  const cap = page.getByTestId('recovery-output.maxTokens');
  if (!(await cap.isVisible())) await page.getByTestId('recovery-group-output').locator('summary').click();
  await cap.fill('300');
  await page.getByTestId('recovery-output.escalatedMaxTokens').fill('600');
  await playground.run();
  const end = await playground.waitForEnd();
  expect(end).toEqual({ reason: 'end_turn', complete: true });

  const escalate = playground.turnCard(1).locator('[data-testid="output-step"][data-action="escalate"]');
  await expect(escalate).toContainText('cap escalated');
  await expect(escalate).toContainText(/300 → 600 tok/);
  await expect(escalate).toContainText('not kept');
  const continued = playground.turnCard(2).locator('[data-testid="output-step"][data-action="continue"]');
  await expect(continued).toContainText('continuation 1 of 3');
  await continued.locator('summary').click();
  await expect(continued).toContainText('cut off at the output token limit');
  await expect(playground.turnCard(4).locator('[data-testid="output-step"]')).toContainText(
    'continuation 3 of 3',
  );
});
