import { expect, test, type Page } from './test';
import { PlaygroundPage } from './pages/playground-page';
import { RECOVERY_GROUPS } from '../lib/client/forms/recovery-fields';

test.use({ viewport: { width: 1440, height: 900 } });

/** Inside the first screen: the element's box lies wholly within the viewport, the page not scrolled. */
async function inFirstScreen(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).first().boundingBox();
  expect(box, testId).not.toBeNull();
  expect(box!.y, `${testId} top`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${testId} bottom`).toBeLessThanOrEqual(900);
}

test('the first screen at 1440×900 holds the scenario, the preset, the first fault toggle and Run', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  const firstFault = page.locator('[data-testid^="fault-toggle-"]').first();
  await expect(firstFault).toBeVisible();
  const id = (await firstFault.getAttribute('data-testid'))!;
  for (const testId of ['run-button', 'scenario-select', 'preset-select', id])
    await inFirstScreen(page, testId);
  // The preset's description is one line until asked for, then whole.
  const description = page.getByTestId('preset-description');
  const folded = (await description.boundingBox())!.height;
  expect(folded).toBeLessThan(24);
  await description.click();
  await expect(description).toHaveAttribute('aria-expanded', 'true');
  expect((await description.boundingBox())!.height).toBeGreaterThan(folded * 3);
  // The takeover options are folded away, and say what they hold.
  await expect(page.getByTestId('foreign-thinking-select')).toBeHidden();
  await expect(page.getByTestId('fold-takeover')).toContainText('every safeguard on');
});

test('every numeric field says its range, and a wrong value is named before Run, which waits for it', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  const blocked = page.getByTestId('run-blocked');
  const fields = [
    'seed-input',
    'time-scale-input',
    'budget-maxIterations',
    'budget-maxCostUsd',
    'budget-maxRunMinutes',
    'budget-maxAttempts',
    'output-cap-input',
  ];
  const recovery = RECOVERY_GROUPS.flatMap((g) =>
    g.fields
      .filter((f) => f.kind === 'int' || f.kind === 'ms' || f.kind === 'ratio')
      .map((f) => ({ group: g.id, id: `recovery-${f.path}` })),
  );
  for (const { group } of recovery) {
    const summary = page.getByTestId(`recovery-group-${group}`).locator('summary');
    if ((await page.getByTestId(`recovery-group-${group}`).getAttribute('open')) === null)
      await summary.click();
  }
  for (const id of [...fields, ...recovery.map((r) => r.id)]) {
    const input = page.getByTestId(id);
    const before = await input.inputValue();
    await expect(page.getByTestId(`${id}-range`), id).toContainText(/from -?[\d.,]+ to [\d.,]+/);
    await input.fill('-1');
    await expect(page.getByTestId(`${id}-error`), id).toContainText(/must be at least [\d.,]+ — it is -1/);
    await expect(playground.runButton, id).toBeDisabled();
    await expect(blocked, id).toContainText(/must be at least [\d.,]+ — it is -1/);
    await input.fill(before === '' ? '' : before);
    await expect(page.getByTestId(`${id}-error`), id).toHaveCount(0);
  }
  await expect(blocked).toHaveCount(0);
  await expect(playground.runButton).toBeEnabled();
  // A whole-number field says so for a fraction, and an emptied field asks for a number.
  await playground.seedInput.fill('1.5');
  await expect(page.getByTestId('seed-input-error')).toHaveText('seed must be a whole number — it is 1.5');
  await playground.seedInput.fill('');
  await expect(page.getByTestId('seed-input-error')).toHaveText('seed is empty: type a number');
  await expect(playground.runButton).toBeDisabled();
  // Scrolled down to the seed, the reason stays beside Run.
  await expect(blocked).toBeInViewport();
  await expect(playground.runButton).toBeInViewport();
});
