import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTokens, formatUsd } from '@/lib/run-view/format';
import { FAULT_TOGGLES } from '@/lib/client/forms/fault-catalog';
import type { EventOf, RunEvent, RunEventType } from '@/lib/protocol';
import { runToEnd } from '@/lib/testing/run-to-end';
import { altOf, captionOf, pictureBlockIn, readmeBlock, withPictureBlocks } from './caption';
import { PICTURES, runConfigOf, SHOWN_KEYWORD, ShownSchema, type ReadmePicture } from './pictures';
import { factsOf } from './run-facts';
import { pngText } from './png-text';

const ROOT = path.resolve(import.meta.dirname, '../..');

const of = <T extends RunEventType>(log: readonly RunEvent[], type: T): EventOf<T>[] =>
  log.filter((e): e is EventOf<T> => e.event === type);

/** Every number written in a text, as written ("$0.020", "11.1k", "4"). */
function numbersIn(text: string): string[] {
  return text.match(/\$?\d+(?:[.,]\d+)*k?/g) ?? [];
}

/**
 * The numbers a picture's caption and alt text may state, each found in the run's own events
 * (not in the picture's table): the seed it ran with; each fault label's count (×n: that many
 * injections of that rule) and status (what the injected requests' errors carried); the turn the
 * attempts are counted in and how many requests it made (caption and alt text); the turn of a
 * failure after turn 1; the turns started; the tokens in and out and the cost as the terminate
 * states them, in the run header's words.
 */
function numbersOfRun(picture: ReadmePicture, events: readonly RunEvent[]): string[] {
  const start = of(events, 'run_start')[0]!;
  const end = of(events, 'terminate')[0]!;
  const numbers = [String(start.config.seed)];
  const injected = of(events, 'fault_injected');
  for (const id of picture.run.faults) {
    const label = FAULT_TOGGLES.find((t) => t.id === id)!.label;
    const mine = injected.filter((f) => f.rule_id === id);
    const statuses = new Set(
      of(events, 'model_error').flatMap((e) =>
        e.status !== undefined && mine.some((f) => f.request_no === requestNoOf(events, e)) ? [e.status] : [],
      ),
    );
    for (const written of numbersIn(label)) {
      const times = new RegExp(`×${written}\\b`).test(label);
      if (times) expect(mine, `${label}: ×${written} injections`).toHaveLength(Number(written));
      else expect([...statuses], `${label}: the status its requests failed with`).toEqual([Number(written)]);
      numbers.push(written);
    }
  }
  const requests = of(events, 'model_request').filter((r) => !r.background);
  const firstTurn = of(events, 'iteration_start')[0]!.iteration;
  const firstTurnRequests = requests.filter((r) => r.iteration === firstTurn).length;
  // "Turn 1 took 4 attempts" in the caption, "turn 1's 4 attempt cards" in the alt text.
  numbers.push(String(firstTurn), String(firstTurnRequests), String(firstTurn), String(firstTurnRequests));
  for (const e of of(events, 'model_error'))
    if (e.iteration !== firstTurn && !isBackground(events, e)) numbers.push(String(e.iteration));
  numbers.push(
    String(of(events, 'iteration_start').length),
    formatTokens(end.input_tokens),
    formatTokens(end.output_tokens),
    formatUsd(end.usd_so_far),
  );
  return numbers;
}

/** The fault wrapper's request number of the request an event belongs to (the latest fault_injected before it of the same iteration). */
function requestNoOf(events: readonly RunEvent[], event: RunEvent): number | undefined {
  const at = events.indexOf(event);
  for (let i = at - 1; i >= 0; i -= 1) {
    const e = events[i]!;
    if (e.event === 'model_request') return undefined;
    if (e.event === 'fault_injected') return e.request_no;
  }
  return undefined;
}

function isBackground(events: readonly RunEvent[], event: RunEvent): boolean {
  const request = events.slice(0, events.indexOf(event)).findLast((e) => e.event === 'model_request');
  return request?.event === 'model_request' && request.background;
}

describe("each README picture's run does what its caption says", () => {
  it.each(PICTURES.map((p) => [p.file, p] as const))('%s', async (_file, picture) => {
    const events = await runToEnd(runConfigOf(picture));
    expect(factsOf(events)).toEqual(picture.facts);
    // Every number the caption and the alt text state is one the run's events bear out, and none is missing.
    expect(numbersIn(`${captionOf(picture)} ${altOf(picture)}`).sort()).toEqual(
      numbersOfRun(picture, events).sort(),
    );
  });
});

describe('each README picture shows what its caption says', () => {
  // The screenshot step writes into each PNG what the page it photographed showed (screenshots-main.ts).
  it.each(PICTURES.map((p) => [p.file, p] as const))('%s', async (_file, picture) => {
    const shown = pngText(fs.readFileSync(path.join(ROOT, picture.file)), SHOWN_KEYWORD);
    expect(
      shown,
      `${picture.file} records nothing of what it shows: make it again with npm run screenshots`,
    ).toBeDefined();
    const events = await runToEnd(runConfigOf(picture));
    const end = of(events, 'terminate')[0]!;
    const turns = of(events, 'iteration_start').length;
    expect(ShownSchema.parse(JSON.parse(shown!))).toEqual({
      tokens: `${formatTokens(end.input_tokens)} / ${formatTokens(end.output_tokens)}`,
      cost: formatUsd(end.usd_so_far),
      turns: `turn ${turns}/${of(events, 'run_start')[0]!.config.budgets.maxIterations}`,
      // Turn 1's attempt cards, each wholly inside the picture.
      attemptCards: of(events, 'model_request').filter((r) => !r.background && r.iteration === 1).length,
    });
  });
});

describe('the README shows the pictures with the captions written from the table', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

  it.each(PICTURES.map((p) => [p.file, p] as const))('%s', (_file, picture) => {
    expect(pictureBlockIn(readme, picture.file)).toBe(readmeBlock(picture));
  });

  it('the first picture is the survived run on the default preset', () => {
    const first = readme.match(/^!\[[^\]]*\]\(([^)]+)\)$/m)?.[1];
    const picture = PICTURES.find((p) => p.file === first);
    expect(picture?.facts.outcome).toBe('completed');
    expect(captionOf(picture!)).toContain('(the default preset)');
    expect(picture!.facts.failures.length).toBeGreaterThan(0);
  });

  it('each picture exists and is under 400 kB', () => {
    for (const picture of PICTURES)
      expect(fs.statSync(path.join(ROOT, picture.file)).size).toBeLessThan(400_000);
  });
});

describe('withPictureBlocks', () => {
  const picture: ReadmePicture = PICTURES[0]!;

  it('rewrites an image line and its caption in place, and adds a caption where there was none', () => {
    const stale = `# T\n\n![old words](${picture.file})\n\n*an old claim*\n\nafter\n`;
    const bare = `# T\n\n![old words](${picture.file})\n\nafter\n`;
    const want = `# T\n\n${readmeBlock(picture)}\n\nafter\n`;
    expect(withPictureBlocks(stale, [picture])).toBe(want);
    expect(withPictureBlocks(bare, [picture])).toBe(want);
    expect(withPictureBlocks(want, [picture])).toBe(want);
  });

  it('refuses a README that does not show the picture', () => {
    expect(() => withPictureBlocks('# T\n', [picture])).toThrow(/shows no/);
  });
});
