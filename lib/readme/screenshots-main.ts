import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { formatTokens, formatUsd } from '@/lib/run-view/format';
import { RunConfigSchema, safeParseEvent, type RunEvent } from '@/lib/protocol';
import { CreatedRunSchema, RunRecordSchema } from '@/lib/protocol/http';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@/lib/testing/chromium-launch';
import { startApp } from './app-server';
import { captionOf, withPictureBlocks } from './caption';
import { PICTURES, runConfigOf, SHOWN_KEYWORD, type ReadmePicture, type Shown } from './pictures';
import { withPngText } from './png-text';
import { factsOf } from './run-facts';

/**
 * `npm run screenshots [-- --start]`: the README's pictures, made again from their runs. Starts
 * the app (`next dev`; `--start`: `next start` on the production build in .next), starts each
 * picture's run through POST /api/runs on the virtual clock, reads its log back and refuses a
 * run whose facts are not the ones its caption claims, photographs the run's page in Debian's
 * Chromium — refusing a page that does not show the caption's figures (the header's tokens, cost
 * and turns; turn 1's attempt cards, each wholly in the picture) — writes the PNGs into docs/,
 * each with what its page showed in a text chunk (pictures.test.ts reads it), and each caption
 * into README.md, and stops the app.
 */
const ROOT = process.cwd();
const MAX_BYTES = 400_000;

async function main(argv: string[]): Promise<number> {
  const mode = argv.includes('--start') ? 'start' : 'dev';
  if (!fs.existsSync(CHROMIUM_PATH)) {
    console.error(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium, or set CHROMIUM_PATH`);
    return 2;
  }
  // The README must already show every picture (it decides where each goes): check before the work.
  withPictureBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), PICTURES);
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  console.log(`starting the app (next ${mode})…`);
  const app = await startApp({ root: ROOT, mode });
  const stopOnSignal = () => void app.stop().then(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const problems: string[] = [];
  const shots: Array<{ picture: ReadmePicture; png: Buffer }> = [];
  try {
    console.log(`app answering at ${app.base} (${seconds()})`);
    // Every run first: a caption that no longer holds stops the script before any file changes.
    const runs: Array<{ picture: ReadmePicture; runId: string }> = [];
    for (const picture of PICTURES) {
      const runId = await startRun(app.base, picture);
      const facts = factsOf(await readLog(app.base, runId));
      if (isDeepStrictEqual(facts, picture.facts)) runs.push({ picture, runId });
      else
        problems.push(
          `${picture.file}: run ${runId} does not do what the caption says\n  claimed:  ${JSON.stringify(picture.facts)}\n  happened: ${JSON.stringify(facts)}`,
        );
    }
    console.log(`${runs.length} of ${PICTURES.length} runs do what their captions say (${seconds()})`);
    if (problems.length === 0) {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
      try {
        for (const { picture, runId } of runs) {
          const page = await browser.newPage({
            viewport: picture.viewport,
            colorScheme: 'light',
            deviceScaleFactor: 1,
          });
          try {
            const shown = await drawRunPage(page, `${app.base}/runs/${runId}`);
            const claimed = shownByCaption(picture);
            if (!isDeepStrictEqual(shown, claimed)) {
              problems.push(
                `${picture.file}: the page does not show what the caption says\n  caption: ${JSON.stringify(claimed)}\n  page:    ${JSON.stringify(shown)}`,
              );
              continue;
            }
            const png = withPngText(await page.screenshot(), SHOWN_KEYWORD, JSON.stringify(shown));
            if (png.length > MAX_BYTES)
              problems.push(
                `${picture.file}: ${Math.round(png.length / 1000)} kB, over ${MAX_BYTES / 1000} kB`,
              );
            shots.push({ picture, png });
            console.log(
              `${picture.file}  ${Math.round(png.length / 1000)} kB  run ${runId}  (${seconds()})\n  ${captionOf(picture)}`,
            );
          } finally {
            await page.close();
          }
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await app.stop();
  }
  if (problems.length > 0) {
    console.error(
      `\n${problems.join('\n')}\n\nNo picture written, README.md left as it was; the app stopped.`,
    );
    return 1;
  }
  for (const { picture, png } of shots) fs.writeFileSync(path.join(ROOT, picture.file), png);
  const readmePath = path.join(ROOT, 'README.md');
  const readme = fs.readFileSync(readmePath, 'utf8');
  const updated = withPictureBlocks(readme, PICTURES);
  if (updated !== readme) fs.writeFileSync(readmePath, updated);
  console.log(
    `${updated !== readme ? 'README.md captions rewritten' : 'README.md captions already current'}; done in ${seconds()}, the app stopped`,
  );
  return 0;
}

async function startRun(base: string, picture: ReadmePicture): Promise<string> {
  const response = await fetch(`${base}/api/runs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ config: runConfigOf(picture) }),
  });
  if (response.status !== 201)
    throw new Error(`${picture.file}: POST /api/runs answered ${response.status}: ${await response.text()}`);
  return CreatedRunSchema.parse(await response.json()).id;
}

/** The run's whole log once it has ended (a virtual-clock run ends in a second or two). */
async function readLog(base: string, runId: string): Promise<RunEvent[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const record = RunRecordSchema.parse(await (await fetch(`${base}/api/runs/${runId}`)).json());
    if (record.summary.status !== 'running') break;
    if (Date.now() > deadline) throw new Error(`run ${runId} still running after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const text = await (await fetch(`${base}/api/runs/${runId}/trace`)).text();
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parsed = safeParseEvent(JSON.parse(line));
      if (!parsed.ok) throw new Error(`run ${runId}: an event this code cannot read: ${parsed.error}`);
      return parsed.event;
    });
}

/** The page's figures a picture's caption states, in the run header's words. */
function shownByCaption(picture: ReadmePicture): Shown {
  const { facts } = picture;
  return {
    tokens: `${formatTokens(facts.inputTokens)} / ${formatTokens(facts.outputTokens)}`,
    cost: formatUsd(facts.usd),
    turns: `turn ${facts.turns}/${RunConfigSchema.parse(runConfigOf(picture)).budgets.maxIterations}`,
    attemptCards: facts.firstTurnAttempts,
  };
}

/**
 * The run page as a reader should see it: finished and its whole log in, the context panel folded so turn 1's
 * attempt cards are on screen, the dev build's badge hidden, fonts loaded. Every attempt card
 * must be wholly inside the picture. Returns the figures the page shows.
 */
async function drawRunPage(page: Page, url: string): Promise<Shown> {
  // next dev compiles the page on its first visit.
  await page.goto(url, { timeout: 180_000 });
  await page.addStyleTag({ content: 'nextjs-portal { display: none !important; }' });
  await page.getByTestId('terminate-banner').first().waitFor({ timeout: 60_000 });
  const firstTurn = page.locator('[data-testid="turn-card"][data-iteration="1"]');
  await firstTurn.waitFor({ timeout: 60_000 });
  const contextToggle = page.getByRole('button', { name: '▾ Context', exact: true });
  if ((await contextToggle.count()) > 0) {
    await contextToggle.first().click();
    await page.getByRole('button', { name: '▸ Context', exact: true }).waitFor({ timeout: 10_000 });
  }
  // The whole log in (a finished run's page reads it after the first paint, its progress in the header).
  const progress = page.locator('[data-testid="log-progress"]:not([data-state="loading"])');
  await progress.waitFor({ timeout: 60_000 });
  if ((await progress.getAttribute('data-state')) !== 'whole')
    throw new Error(`${url}: the run's log did not load (${await progress.textContent()})`);
  await page.evaluate('document.fonts.ready');
  await page.waitForTimeout(300);
  const viewport = page.viewportSize()!;
  const steps = firstTurn.getByTestId('ladder-step');
  const count = await steps.count();
  if (count === 0) throw new Error(`${url}: turn 1 shows no attempt cards`);
  for (let i = 0; i < count; i += 1) {
    const box = await steps.nth(i).boundingBox();
    if (
      !box ||
      box.y < 0 ||
      box.x < 0 ||
      box.y + box.height > viewport.height ||
      box.x + box.width > viewport.width
    ) {
      throw new Error(
        `${url}: turn 1's attempt card ${i + 1} is not wholly in the ${viewport.width}×${viewport.height} picture (${JSON.stringify(box)}); raise the picture's viewport`,
      );
    }
  }
  const text = async (testId: string) =>
    ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
  return {
    tokens: await text('run-tokens'),
    cost: await text('run-cost'),
    turns: await text('turn-budget'),
    attemptCards: count,
  };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      `${error instanceof Error ? error.message : String(error)}\nNo picture written, README.md left as it was.`,
    );
    process.exit(1);
  },
);
