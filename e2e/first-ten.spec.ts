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

/**
 * Every numeric field, in groups: the run's own fields, then one recovery group at a time. Each
 * field is a handful of round trips, so the groups are separate tests — all of them in one took
 * 22 s on a quiet machine and ran past the minute beside the other browser tests in CI.
 */
const NUMERIC_GROUPS: readonly { name: string; group?: string; ids: readonly string[] }[] = [
  {
    name: 'the run',
    ids: [
      'seed-input',
      'time-scale-input',
      'budget-maxIterations',
      'budget-maxCostUsd',
      'budget-maxRunMinutes',
      'budget-maxAttempts',
      'output-cap-input',
    ],
  },
  ...RECOVERY_GROUPS.map((g) => ({
    name: g.title,
    group: g.id,
    ids: g.fields
      .filter((f) => f.kind === 'int' || f.kind === 'ms' || f.kind === 'ratio')
      .map((f) => `recovery-${f.path}`),
  })).filter((g) => g.ids.length > 0),
];

for (const { name, group, ids } of NUMERIC_GROUPS) {
  test(`${name}: every numeric field says its range, and a wrong value is named before Run, which waits for it`, async ({
    page,
  }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    const blocked = page.getByTestId('run-blocked');
    if (group) {
      const details = page.getByTestId(`recovery-group-${group}`);
      if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
    }
    for (const id of ids) {
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
  });
}

test('a fraction in a whole-number field and an emptied field are named, beside Run while the field is in view', async ({
  page,
}) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  const blocked = page.getByTestId('run-blocked');
  // Every recovery group open makes the panel long, so Run's bar and the seed can part.
  for (const { id } of RECOVERY_GROUPS) {
    const details = page.getByTestId(`recovery-group-${id}`);
    if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  }
  await playground.seedInput.fill('1.5');
  await expect(page.getByTestId('seed-input-error')).toHaveText('seed must be a whole number — it is 1.5');
  await playground.seedInput.fill('');
  await expect(page.getByTestId('seed-input-error')).toHaveText('seed is empty: type a number');
  await expect(playground.runButton).toBeDisabled();
  // Scrolled down to the seed, the reason stays beside Run.
  await expect(blocked).toBeInViewport();
  await expect(playground.runButton).toBeInViewport();
});
