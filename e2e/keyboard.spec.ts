import { expect, test, type Locator, type Page } from './test';
import { PlaygroundPage } from './pages/playground-page';

/**
 * The playground with the keyboard only — Tab, Shift+Tab, Enter, Space, arrow keys and Escape,
 * no mouse: start a run, inject a fault while it runs, swap vendors, then open a finished turn's
 * details; dialogs and popovers take focus, Escape closes them, focus returns to the opener.
 */

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 150 } = {}): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab did not reach ${target} in ${max} presses`);
}

async function expectFocused(target: Locator): Promise<void> {
  await expect.poll(() => target.evaluate((el) => el === document.activeElement)).toBe(true);
}

test('start a run, inject a fault mid-run, swap vendors, open a finished turn: keyboard only', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await expect(playground.scenarioSelect.locator('option').first()).toBeAttached();

  // The first Tab stop skips the site links; Enter lands in the page, the next Tab on Run.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expectFocused(skip);
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expectFocused(playground.runButton);

  // The key & endpoint dialog: opened with Enter, focus inside, Escape closes it, focus comes back.
  const endpointOpen = page.getByTestId('endpoint-open');
  await tabTo(page, endpointOpen);
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('endpoint-dialog');
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expectFocused(endpointOpen);

  // Run time at three times wall time, so there is time to act while the run plays.
  await tabTo(page, playground.timeScaleInput);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('3');
  await expect(playground.timeScaleInput).toHaveValue('3');

  // Back up to Run with Shift+Tab and start.
  await tabTo(page, playground.runButton, { back: true });
  await page.keyboard.press('Enter');
  await expect(playground.runLink).toBeVisible();
  await expect(playground.turnCard(1)).toBeVisible({ timeout: 30_000 });

  // A fault switched on mid-run with Space: the next request is rate limited, the loop waits.
  const fault = playground.faultToggle('rate-limit-7s');
  await tabTo(page, fault);
  await page.keyboard.press('Space');
  await expect(fault).toBeChecked();
  await expect(page.getByTestId('run-status-reason')).toContainText(/waiting|429/, { timeout: 30_000 });

  // "Swap to…": the vendor picked with the arrow keys, the swap sent with Enter.
  const swapVendor = page.getByTestId('swap-vendor-select');
  await tabTo(page, swapVendor, { back: true });
  const before = await swapVendor.inputValue();
  await page.keyboard.press('ArrowDown');
  await expect(swapVendor).not.toHaveValue(before);
  const swapButton = page.getByTestId('swap-button');
  await tabTo(page, swapButton);
  await expect(swapButton).toBeEnabled();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('takeover-panel')).toBeVisible({ timeout: 30_000 });

  await playground.waitForEnd(150_000);

  // The finished run's own page, opened from the run link with Enter.
  await tabTo(page, playground.runLink);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/runs\/[^/]+$/);
  await expect(page.getByTestId('terminate-banner')).toBeVisible();

  // A turn's details: Enter on "Turn 1" opens the inspector with focus inside; Escape closes it
  // and focus returns to the turn.
  const turnButton = page
    .getByTestId('turn-card')
    .first()
    .getByRole('button', { name: 'Turn 1', exact: true });
  await tabTo(page, turnButton, { max: 250 });
  await page.keyboard.press('Enter');
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toBeVisible();
  await expect(inspector.getByRole('heading', { name: 'Inspector' })).toBeFocused();
  await expect(
    inspector
      .getByTestId('explain-entry')
      .or(inspector.getByText(/raw event/))
      .first(),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(inspector).toBeHidden();
  await expectFocused(turnButton);

  // A popover (Fork…): focus moves in, Escape closes it and returns to the button.
  const forkOpen = page.getByTestId('fork-open');
  await tabTo(page, forkOpen, { back: true, max: 250 });
  await page.keyboard.press('Enter');
  const fork = page.getByTestId('fork-dialog');
  await expect(fork).toBeVisible();
  expect(await fork.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(fork).toBeHidden();
  await expectFocused(forkOpen);
});

test('on a phone the controls drawer opens with Enter, takes focus, and Escape closes it back to its button', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const playground = new PlaygroundPage(page);
  await page.goto('/');
  const toggle = page.getByTestId('controls-toggle');
  await expect(toggle).toBeVisible();
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  const drawer = page.getByTestId('controls');
  await expect(drawer).toHaveAttribute('data-drawer', 'open');
  await expectFocused(playground.runButton);
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveAttribute('data-drawer', 'closed');
  await expectFocused(toggle);
});
