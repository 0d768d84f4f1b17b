import { expect, test } from './test';

/**
 * A cross-site write attempted in a real browser: a page on another origin posts to this server.
 * A CORS-simple post (no preflight) reaches the server and is refused; a JSON post needs a
 * preflight the server never grants. Either way no run starts.
 */
test('a page on another origin cannot start a run on this server', async ({ page, request, baseURL }) => {
  // The posts carry a seed no other test uses, so runs other specs start meanwhile do not count.
  const SEED = 914_207_331;
  const count = async () =>
    ((await (await request.get('/api/runs?limit=500')).json()) as { seed: number | null }[]).filter(
      (r) => r.seed === SEED,
    ).length;
  expect(await count()).toBe(0);
  const target = baseURL!;
  const otherOrigin = target.replace('127.0.0.1', 'localhost');
  expect(otherOrigin).not.toBe(target);
  await page.goto(`${otherOrigin}/api/scenarios`);
  const outcome = await page.evaluate(
    async ({ url, seed }) => {
      const body = JSON.stringify({
        config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed },
      });
      const simple = await fetch(`${url}/api/runs`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body,
      }).then(
        (r) => r.type,
        () => 'failed',
      );
      const json = await fetch(`${url}/api/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }).then(
        (r) => `status ${r.status}`,
        () => 'blocked',
      );
      return { simple, json };
    },
    { url: target, seed: SEED },
  );
  expect(outcome.json).toBe('blocked');
  await page.waitForTimeout(500);
  expect(await count()).toBe(0);

  // The same post made as the app's own page would make it is accepted, and counted.
  const own = await request.post('/api/runs', {
    headers: { origin: target, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
    data: { config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed: SEED } },
  });
  expect(own.status()).toBe(201);
  expect(await count()).toBe(1);
});
