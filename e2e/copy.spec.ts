import { expect, test } from './test';

/**
 * Every copy button says what it did, where a screen reader hears it too: the run config's
 * "Copy as JSON" and the takeover wire's "copy as curl", on a run swapped onto OpenAI's Responses
 * API — whose curl is addressed to the endpoint the body went to, not a placeholder.
 */
test('copy buttons confirm the copy in a live region; a Responses body copies as curl to its real endpoint', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  const created = await page.request.post('/api/runs', {
    data: {
      config: {
        provider: { vendor: 'sim-anthropic' },
        clock: 'virtual',
        seed: 1,
        swaps: [{ atTurn: 2, vendor: 'sim-openai-responses' }],
      },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('terminate-banner').first()).toBeVisible({ timeout: 30_000 });
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  // The config: its live region is in the page before the click, empty; "Copied" after it, then gone.
  await page.getByTestId('run-config').locator('summary').click();
  const configStatus = page.getByTestId('copy-config-status');
  await expect(configStatus).toHaveAttribute('role', 'status');
  await expect(configStatus).toHaveAttribute('aria-live', 'polite');
  await expect(configStatus).toHaveText('');
  await page.getByTestId('copy-config').click();
  await expect(configStatus).toHaveText('Copied');
  expect(JSON.parse(await clipboard())).toMatchObject({
    seed: 1,
    swaps: [{ atTurn: 2, vendor: 'sim-openai-responses' }],
  });
  await expect(configStatus).toHaveText('', { timeout: 10_000 });

  // The first body sent to the Responses vendor, as curl: its endpoint, the key as a variable.
  const after = page.getByTestId('wire-after');
  await expect(after).toContainText('POST http://sim.openai-responses.local/v1/responses', {
    timeout: 30_000,
  });
  await after.getByTestId('copy-curl').click();
  const curlStatus = after.getByTestId('copy-curl-status');
  await expect(curlStatus).toHaveAttribute('aria-live', 'polite');
  await expect(curlStatus).toHaveText('Copied — the key is an environment variable: set it in your shell');
  const curl = await clipboard();
  expect(curl.split('\n')[0]).toBe("curl 'http://sim.openai-responses.local/v1/responses' \\");
  expect(curl).toContain('-H "authorization: Bearer $OPENAI_API_KEY"');
  expect(curl).not.toContain('<the vendor');
  // And the body before the swap, to Anthropic's Messages endpoint.
  const before = page.getByTestId('wire-before');
  await before.getByTestId('copy-curl').click();
  await expect(before.getByTestId('copy-curl-status')).toHaveText(/^Copied/);
  expect((await clipboard()).split('\n')[0]).toBe("curl 'http://sim.anthropic.local/v1/messages' \\");
});
