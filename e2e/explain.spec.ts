import { expect, test } from './test';
import { RunPage } from './pages/run-page';

/** Explanations where things happen: the why on a ladder step, the inspector's lesson link, the glossary, the zoomable waterfall. */

test('a retry step says why, the inspector links its lesson and glossary term, keepalives are drawn, the waterfall zooms', async ({
  page,
}) => {
  // On the virtual clock the run is finished by the time the page opens: nothing to wait for.
  const created = await page.request.post('/api/runs', {
    data: {
      config: {
        clock: 'virtual',
        seed: 5,
        provider: { vendor: 'sim-anthropic' },
        faults: {
          rules: [
            {
              id: 'busy',
              enabled: true,
              when: { kind: 'requests', numbers: [1] },
              action: { type: 'http_error', status: 429, retryAfterSec: 7 },
            },
            {
              id: 'quiet',
              enabled: true,
              when: { kind: 'requests', numbers: [2] },
              action: { type: 'keepalive_only', intervalMs: 15_000, style: 'ping' },
            },
          ],
          tools: [],
        },
      },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const run = new RunPage(page);
  await run.goto(id);
  await expect(page.getByTestId('terminate-banner')).toBeVisible();

  // The first ladder step: the wait was the server's Retry-After, and the line says so with its number.
  const step = page.getByTestId('ladder-step').first();
  const why = step.getByTestId('why-line');
  await expect(why).toContainText('after 7 s');
  await expect(why).toContainText('Retry-After honoured');
  await expect(why).toHaveAttribute('data-term', 'retry-after');
  // The watchdog step after the keepalives: Empty, retried at once.
  await expect(page.getByTestId('ladder-step').nth(1).getByTestId('why-line')).toContainText('at once');

  // Keepalives are ticks on the stalled attempt's bar.
  expect(await page.getByTestId('keepalive-tick').count()).toBeGreaterThanOrEqual(7);

  // The inspector: the definition, the lesson, the glossary anchor.
  await step.click();
  const entry = run.inspector.getByTestId('explain-entry').filter({ hasText: 'Retry-After honoured' });
  await expect(entry).toBeVisible();
  await expect(entry.getByTestId('lesson-link')).toHaveAttribute('href', '/lessons/retry-after');
  await expect(entry.getByTestId('glossary-link')).toHaveAttribute('href', '/glossary#retry-after');

  // The waterfall zooms and pans on the time axis, and goes back to the whole run.
  const waterfall = page.getByTestId('waterfall');
  const range = async () => ({
    from: Number(await waterfall.getAttribute('data-from')),
    to: Number(await waterfall.getAttribute('data-to')),
  });
  const whole = await range();
  expect(whole.from).toBe(0);
  await page.getByTestId('waterfall-zoom-in').click();
  await page.getByTestId('waterfall-zoom-in').click();
  const zoomed = await range();
  expect(zoomed.to - zoomed.from).toBeCloseTo((whole.to - whole.from) / 4, -1);
  await page.getByTestId('waterfall-pan-right').click();
  const panned = await range();
  expect(panned.from).toBeGreaterThan(zoomed.from);
  expect(panned.to - panned.from).toBeCloseTo(zoomed.to - zoomed.from, -1);
  await page.getByTestId('waterfall-zoom-reset').click();
  expect(await range()).toEqual(whole);

  // The glossary anchor exists and defines the term.
  await entry.getByTestId('glossary-link').click();
  await expect(page).toHaveURL(/\/glossary#retry-after$/);
  await expect(page.locator('#retry-after')).toBeVisible();
  await expect(page.locator('#retry-after')).toContainText('Retry-After');
  expect(await page.getByTestId('glossary-term').count()).toBeGreaterThan(40);
});
