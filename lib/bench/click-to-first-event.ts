import fs from 'node:fs';
import path from 'node:path';
import { startNextServer } from './next-server';
import { median, percentile } from './stats';

/**
 * Click Run → first event painted, in the real browser against `next start`: Chromium clicks
 * the playground's Run button and the page's own performance marks (lib/client/run-view/run-marks.ts)
 * say when the POST came back, the stream opened, the first event arrived and was painted.
 * The click is the input event's own timestamp. Each run is aborted before the next click.
 */
export type ClickToFirstEvent =
  | { skipped: string }
  | {
      clicks: number;
      /** Milliseconds from the click, per click. */
      painted: number[];
      created: number[];
      streamOpen: number[];
      firstEvent: number[];
      /** The first click after the server started (its warm-up included), not in the figures. */
      coldMs: number;
      buildAgeMin: number;
    };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function measureClickToFirstEvent({ clicks }: { clicks: number }): Promise<ClickToFirstEvent> {
  const root = process.cwd();
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!fs.existsSync(CHROMIUM))
    return { skipped: `no Chromium at ${CHROMIUM} (set CHROMIUM_PATH, or apt-get install chromium)` };
  if (!fs.existsSync(buildId))
    return { skipped: 'no production build (.next/BUILD_ID): run `npx next build` first' };
  const { chromium } = await import('playwright-core');

  const server = await startNextServer({ root, prefix: 'loop-lab-bench-web-' });
  const { base } = server;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.goto(base);
    const runButton = page.getByRole('button', { name: 'Run', exact: true }).first();
    await runButton.waitFor();
    // The click's own timestamp, taken by the browser when the input event was created.
    // (Code for the page goes as strings: tsx would wrap functions in a helper the page lacks.)
    await page.evaluate(
      `document.addEventListener('click', (e) => performance.mark('bench:click', { startTime: e.timeStamp }), { capture: true })`,
    );
    const samples: Array<Record<'painted' | 'created' | 'streamOpen' | 'firstEvent', number>> = [];
    for (let i = 0; i <= clicks; i += 1) {
      await page.evaluate('performance.clearMarks()');
      await runButton.click();
      await page.waitForFunction(
        `performance.getEntriesByName('loop-lab:first-event-painted').length > 0`,
        undefined,
        { timeout: 30_000 },
      );
      const sample = (await page.evaluate(`(() => {
        const at = (name) => performance.getEntriesByName(name).at(-1)?.startTime ?? NaN;
        const click = at('bench:click');
        return {
          painted: at('loop-lab:first-event-painted') - click,
          created: at('loop-lab:run-created') - click,
          streamOpen: at('loop-lab:stream-open') - click,
          firstEvent: at('loop-lab:first-event') - click,
        };
      })()`)) as Record<'painted' | 'created' | 'streamOpen' | 'firstEvent', number>;
      samples.push(sample);
      // Abort the run (it is on the real clock) and wait until the page shows it ended.
      const href = await page.getByTestId('run-link').first().getAttribute('href');
      const id = href?.split('/').at(-1);
      if (id) {
        await page.evaluate(
          `fetch('/api/runs/${encodeURIComponent(id)}/control', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":"abort"}' })`,
        );
      }
      await page
        .getByTestId('terminate-banner')
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(() => undefined);
    }
    const [cold, ...warm] = samples;
    const pick = (key: keyof (typeof samples)[number]) => warm.map((s) => s[key]);
    return {
      clicks,
      painted: pick('painted'),
      created: pick('created'),
      streamOpen: pick('streamOpen'),
      firstEvent: pick('firstEvent'),
      coldMs: cold!.painted,
      buildAgeMin: (Date.now() - fs.statSync(buildId).mtimeMs) / 60_000,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

export function describeClicks(result: Exclude<ClickToFirstEvent, { skipped: string }>): string {
  const f = (values: number[]) =>
    `median ${median(values).toFixed(0)} ms, p95 ${percentile(values, 95).toFixed(0)} ms`;
  return (
    `first event painted: ${f(result.painted)} after the click (${result.clicks} clicks; the first click after the server started, ` +
    `not counted: ${result.coldMs.toFixed(0)} ms)\n` +
    `      along the way, from the click: POST answered ${f(result.created)}; stream open ${f(result.streamOpen)}; ` +
    `first event received ${f(result.firstEvent)}\n` +
    `      before (same path on a production build): median 451 ms — POST 82 ms, the stream opened 170–200 ms after the POST returned\n` +
    `      (build ${result.buildAgeMin.toFixed(0)} min old; rebuild with \`npx next build\` to measure the code as it is)`
  );
}
