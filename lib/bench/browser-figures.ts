import fs from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import type { RunConfigInput } from '@/lib/protocol';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@/lib/testing/chromium-launch';
import { startNextServer } from './next-server';
import { median } from './stats';

/**
 * The browser side, measured in Chromium against `next start` (the production build):
 * the JavaScript the playground route loads (every script Chromium fetches for `/` until its
 * load event, each file of the build gzipped as `next start` sends it), and a finished run of ~20,000 events opened on its run page — time
 * from navigation to the paint that shows the whole folded run (its terminate banner drawn), then
 * to the rest of its log read (its progress gone), and the longest frame on the way until 500 ms
 * after that (long animation frames, long tasks as a fallback).
 */
export type BrowserFigures =
  | { skipped: string }
  | {
      /** Every script fetched until the page is idle; `beforeLoad` for those before its load event. */
      scripts: Array<{ url: string; bytes: number; gzip: number; beforeLoad: boolean }>;
      gzipBytes: number;
      /** The part of gzipBytes fetched before the load event. */
      gzipBeforeLoad: number;
      /** The part of gzipBytes that is Next's and React's own (the build's root main files, which every route loads): the floor for any page. */
      gzipFramework: number;
      runEvents: number;
      /** A short finished run (~150 events) opened the same way: the page's boot, which any run's paint includes. */
      short: { runEvents: number; paintedMs: number[]; longestFrameMs: number[] };
      /** One entry a page open (the first, cold, included); frames counted until 500 ms after the whole log is in. */
      opens: Open[];
      buildAgeMin: number;
    };

/**
 * The long run: the long-output model with a 64,000-token cap, every stream record its own
 * event (a slow drip 60 ms a record, past the 50 ms delta window), on the virtual clock.
 * Played by the server itself through POST /api/runs: ~18,500 events.
 */
export const LONG_RUN_CONFIG: RunConfigInput = {
  provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
  scenario: 'long-project',
  policy: 'long-output',
  seed: 3,
  clock: 'virtual',
  maxOutputTokens: 64_000,
  budgets: { maxIterations: 10, maxCostUsd: 50, maxAttempts: 500 },
  faults: {
    rules: [
      { id: 'drip', enabled: true, when: { kind: 'always' }, action: { type: 'slow_drip', delayMs: 60 } },
    ],
    tools: [],
  },
} as RunConfigInput;

/** A short run opened as the long one is: fix-failing-test on the simulated vendor, virtual clock (~150 events). */
const SHORT_RUN_CONFIG: RunConfigInput = {
  provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
  scenario: 'fix-failing-test',
  seed: 7,
  clock: 'virtual',
} as RunConfigInput;

/** The page's own observers, installed before any script of the page runs (a string: tsx would wrap a function). */
const OBSERVE = `(() => {
  window.__frames = [];
  window.__tasks = [];
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__frames.push(e.duration); }).observe({ type: 'long-animation-frame', buffered: true }); } catch {}
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push(e.duration); }).observe({ type: 'longtask', buffered: true }); } catch {}
  // The run is on screen once its terminate banner is in the page and painted (the frame after the next one starts):
  // drawn by the server, it is in the HTML when the document is parsed; drawn by the page's scripts, it comes later.
  let painted = false;
  const seen = () => {
    if (painted || !document.querySelector('[data-testid="terminate-banner"]')) return;
    painted = true;
    watch.disconnect();
    requestAnimationFrame(() => setTimeout(() => performance.mark('bench:run-painted'), 0));
  };
  const watch = new MutationObserver(seen);
  // The rest of the log, read after the paint, is in once its progress says so.
  const log = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="log-progress"][data-state="whole"]')) return;
    log.disconnect();
    performance.mark('bench:log-whole');
  });
  document.addEventListener('DOMContentLoaded', () => {
    watch.observe(document.body, { childList: true, subtree: true });
    seen();
    log.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  });
})()`;

export async function measureBrowser({ opens }: { opens: number }): Promise<BrowserFigures> {
  const root = process.cwd();
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!fs.existsSync(CHROMIUM_PATH))
    return { skipped: `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH, or apt-get install chromium)` };
  if (!fs.existsSync(buildId))
    return { skipped: 'no production build (.next/BUILD_ID): run `npx next build` first' };
  const { chromium } = await import('playwright-core');

  const server = await startNextServer({ root, prefix: 'loop-lab-bench-browser-' });
  const { base } = server;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    // What Chromium loads for the playground: every script it fetches until the page is idle
    // (the load event, then an idle callback, then QUIET_MS with no script fetched): code the page
    // fetches ahead on its own, and Next's prefetching of other routes, count as well.
    const page = await browser.newPage();
    const requested = new Map<string, boolean>();
    let loaded = false;
    page.on('request', (request) => {
      if (request.resourceType() === 'script' && !requested.has(request.url()))
        requested.set(request.url(), !loaded);
    });
    await page.goto(base, { waitUntil: 'load' });
    loaded = true;
    await page.getByRole('button', { name: 'Run', exact: true }).first().waitFor();
    await page.evaluate(
      `new Promise((resolve) => typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 5000 }) : setTimeout(resolve, 0))`,
    );
    for (let seen = -1, waited = 0; seen !== requested.size && waited < 30_000; waited += QUIET_MS) {
      seen = requested.size;
      await page.waitForTimeout(QUIET_MS);
    }
    await page.close();
    const scripts = [...requested].map(([url, beforeLoad]) => {
      const file = new URL(url).pathname.replace(/^\/_next\//, '.next/');
      const body = fs.readFileSync(path.join(root, decodeURIComponent(file)));
      return { url: new URL(url).pathname, bytes: body.length, gzip: zlib.gzipSync(body).length, beforeLoad };
    });

    // The long run, played by the server (virtual clock), then opened finished.
    const created = await fetch(`${base}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: LONG_RUN_CONFIG }),
    });
    if (!created.ok) throw new Error(`POST /api/runs answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    const runEvents = await waitForEnd(`${base}/api/runs/${encodeURIComponent(id)}/events`);

    const samples = await openRun(browser, base, id, opens);
    const shortCreated = await fetch(`${base}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: SHORT_RUN_CONFIG }),
    });
    if (!shortCreated.ok)
      throw new Error(`POST /api/runs answered ${shortCreated.status}: ${await shortCreated.text()}`);
    const shortId = ((await shortCreated.json()) as { id: string }).id;
    const shortEvents = await waitForEnd(`${base}/api/runs/${encodeURIComponent(shortId)}/events`);
    const shortOpens = await openRun(browser, base, shortId, opens);
    const rootMain = new Set(
      (
        JSON.parse(fs.readFileSync(path.join(root, '.next', 'build-manifest.json'), 'utf8')) as {
          rootMainFiles?: string[];
        }
      ).rootMainFiles?.map((file) => `/_next/${file}`) ?? [],
    );
    return {
      scripts,
      gzipBytes: scripts.reduce((sum, s) => sum + s.gzip, 0),
      gzipBeforeLoad: scripts.filter((s) => s.beforeLoad).reduce((sum, s) => sum + s.gzip, 0),
      gzipFramework: scripts.filter((s) => rootMain.has(s.url)).reduce((sum, s) => sum + s.gzip, 0),
      runEvents,
      opens: samples,
      // The first open is cold, as for the long run.
      short: {
        runEvents: shortEvents,
        paintedMs: shortOpens.slice(shortOpens.length > 1 ? 1 : 0).map((o) => o.paintedMs),
        longestFrameMs: shortOpens.slice(shortOpens.length > 1 ? 1 : 0).map((o) => o.longestFrameMs),
      },
      buildAgeMin: (Date.now() - fs.statSync(buildId).mtimeMs) / 60_000,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

type Open = {
  paintedMs: number;
  /** The page's first contentful paint: nothing of the run can be painted before it. */
  firstPaintMs: number;
  /** The host's load average (1 min) just after the open. */
  load: number;
  logWholeMs: number;
  longestFrameMs: number;
  longestTaskMs: number;
  frames: number;
};

/** Opens a finished run's page `opens` times, each in a new browser context (the first cold): its paint, log and frames. */
async function openRun(browser: Browser, base: string, id: string, opens: number): Promise<Open[]> {
  const samples: Open[] = [];
  for (let i = 0; i < opens; i += 1) {
    const context = await browser.newContext();
    const runPage = await context.newPage();
    await runPage.addInitScript(OBSERVE);
    await runPage.goto(`${base}/runs/${encodeURIComponent(id)}`);
    await runPage.waitForFunction(`performance.getEntriesByName('bench:run-painted').length > 0`, undefined, {
      timeout: 60_000,
    });
    // The rest of the log, read after the paint (the inspector's raw events), and the frames
    // still settling after it count too.
    await runPage.waitForFunction(`performance.getEntriesByName('bench:log-whole').length > 0`, undefined, {
      timeout: 60_000,
    });
    await runPage.waitForTimeout(500);
    samples.push({
      ...((await runPage.evaluate(`(() => ({
        paintedMs: performance.getEntriesByName('bench:run-painted')[0].startTime,
        firstPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        logWholeMs: performance.getEntriesByName('bench:log-whole')[0].startTime,
        longestFrameMs: Math.max(0, ...window.__frames),
        longestTaskMs: Math.max(0, ...window.__tasks),
        frames: window.__frames.length,
      }))()`)) as Omit<Open, 'load'>),
      load: loadavg()[0]!,
    });
    await context.close();
  }
  return samples;
}

/** Reads the run's event stream to its terminate; returns how many events it holds. */
async function waitForEnd(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  const frames = text.split('\n\n').filter((frame) => frame.startsWith('id: '));
  if (!frames.at(-1)?.includes('"event":"terminate"'))
    throw new Error('the long run ended without a terminate');
  return frames.length;
}

export const BUNDLE_TARGET_BYTES = 150 * 1024;
/** The page is idle once no script has been fetched for this long (after its load event and an idle callback). */
const QUIET_MS = 2_000;
export const PAINT_TARGET_MS = 1000;
export const FRAME_TARGET_MS = 100;

export function describeBrowser(result: Exclude<BrowserFigures, { skipped: string }>): {
  bundle: string;
  open: string;
} {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const largest = [...result.scripts].sort((a, b) => b.gzip - a.gzip).slice(0, 5);
  const after = result.scripts.filter((s) => !s.beforeLoad);
  const own = result.gzipBeforeLoad - result.gzipFramework;
  const [cold, ...warm] = result.opens;
  const seen = warm.length > 0 ? warm : result.opens;
  const painted = seen.map((s) => s.paintedMs);
  const frames = seen.map((s) => s.longestFrameMs);
  const firstPaint = median(seen.map((s) => s.firstPaintMs));
  const shortFrame = Math.max(...result.short.longestFrameMs);
  return {
    bundle:
      `${kb(result.gzipBytes)} gzip in ${result.scripts.length} scripts until idle (${kb(result.scripts.reduce((sum, s) => sum + s.bytes, 0))} before gzip); ` +
      `${kb(result.gzipBeforeLoad)} in ${result.scripts.filter((s) => s.beforeLoad).length} of them before the load event, ` +
      `${kb(result.gzipBytes - result.gzipBeforeLoad)} in ${after.length} after it${after.length > 0 ? ` (${after.map((s) => path.basename(s.url)).join(', ')})` : ''}; largest: ` +
      largest
        .map((s) => `${path.basename(s.url)} ${kb(s.gzip)}${s.beforeLoad ? '' : ' (after load)'}`)
        .join(', ') +
      `\n      the floor: ${kb(result.gzipFramework)} is Next's and React's own (the build's root main files, which every route loads), ` +
      `${kb(own)} the route's own code the first paint hydrates (the controls, the query cache, the run store)` +
      (result.gzipBytes > BUNDLE_TARGET_BYTES
        ? `: ${kb(BUNDLE_TARGET_BYTES)} leaves the route ${kb(BUNDLE_TARGET_BYTES - result.gzipFramework)} of its own, ${kb(own - (BUNDLE_TARGET_BYTES - result.gzipFramework))} less than it hydrates now`
        : ''),
    open:
      `${result.runEvents.toLocaleString('en')} events: painted ${ms(median(painted))} after navigation (median of ${seen.length}; ` +
      `each ${seen.map((s) => `${ms(s.paintedMs)} at load ${s.load.toFixed(1)}`).join(', ')}), the whole log in ${ms(median(seen.map((s) => s.logWholeMs)))}; ` +
      `longest frame ${ms(Math.max(...frames))} ` +
      `(each ${frames.map(ms).join(', ')}; longest task ${ms(Math.max(...seen.map((s) => s.longestTaskMs)))})` +
      (cold && warm.length > 0
        ? `; the first open, cold: ${ms(cold.paintedMs)}, frame ${ms(cold.longestFrameMs)} at load ${cold.load.toFixed(1)}`
        : '') +
      `\n      the floor: the page's first contentful paint, ${ms(firstPaint)} (median), before which nothing of a run can show; ` +
      `a ${result.short.runEvents}-event run opened the same way (the page's boot, which any run's paint includes) painted in ${ms(median(result.short.paintedMs))} ` +
      `(each ${result.short.paintedMs.map(ms).join(', ')}), its longest frame ${ms(shortFrame)}` +
      `\n      (build ${result.buildAgeMin.toFixed(0)} min old; rebuild with \`npx next build\` to measure the code as it is)`,
  };
}
