import { expect, test } from './test';

test('an unknown run or sweep id answers 404 with a way back and no run actions', async ({ page }) => {
  for (const path of ['/runs/does-not-exist', '/sweeps/does-not-exist']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Runs list' })).toBeVisible();
    await expect(
      page.getByRole('button', { name: /Compare with|Run the counterfactual|Download trace/ }),
    ).toHaveCount(0);
  }
});
