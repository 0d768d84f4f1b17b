import { expect, test } from './test';

test('an unknown run, sweep or cassette id answers 404 with a way back and no run actions', async ({
  page,
}) => {
  // Cassettes have no page of their own: an address under /cassettes is answered by the same 404.
  for (const path of ['/runs/does-not-exist', '/sweeps/does-not-exist', '/cassettes/does-not-exist']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Runs list' })).toBeVisible();
    await expect(
      page.getByRole('button', { name: /Compare with|Run the counterfactual|Download trace/ }),
    ).toHaveCount(0);
  }
});
