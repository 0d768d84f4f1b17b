import { z } from 'zod';
import { faultPlanFor, FAULT_TOGGLES } from '@/lib/client/forms/fault-catalog';
import type { PresetId, RunConfigInput, Vendor } from '@/lib/protocol';
import type { RunFacts } from './run-facts';

/**
 * The README's pictures, as data: each one a seeded virtual-clock run (the playground's own
 * fault toggles, a preset, a scenario, a seed) and the facts its caption claims about that run.
 * `npm run screenshots` runs each config through the app's HTTP API, refuses to draw a run
 * whose events contradict its facts, and photographs its run page; `pictures.test.ts` runs
 * each config through the runtime and holds the facts and the README's captions to this table.
 */
export interface ReadmePicture {
  /** Where the PNG goes, relative to the repository root (the README links the same path). */
  file: string;
  run: {
    vendor: Vendor;
    preset: PresetId;
    scenario: string;
    /** Ids of the playground's fault toggles (lib/client/forms/fault-catalog.ts), in the order they play. */
    faults: string[];
    seed: number;
  };
  /** What the run does, as its events say it (lib/readme/run-facts.ts); the caption is written from these. */
  facts: RunFacts;
  /** The browser window the run page is drawn in. */
  viewport: { width: number; height: number };
}

export const PICTURES: readonly ReadmePicture[] = [
  {
    file: 'docs/playground.png',
    run: {
      vendor: 'sim-anthropic',
      preset: 'codesmith',
      scenario: 'fix-failing-test',
      faults: ['server-500', 'stall-after-first'],
      seed: 1,
    },
    facts: {
      outcome: 'completed',
      reason: 'end_turn',
      verdict: 'done',
      turns: 9,
      inputTokens: 11_096,
      outputTokens: 271,
      usd: 0.019623,
      firstTurnAttempts: 4,
      failures: [
        { iteration: 1, attempt: 1, category: 'internal', retried: true, rung: 'silent_retry' },
        { iteration: 1, attempt: 2, category: 'internal', retried: true, rung: 'silent_retry' },
        {
          iteration: 1,
          attempt: 3,
          category: 'timeout',
          watchdog: 'empty',
          retried: true,
          rung: 'silent_retry',
        },
      ],
    },
    viewport: { width: 1280, height: 1000 },
  },
  {
    file: 'docs/retries-exhausted.png',
    run: {
      vendor: 'sim-anthropic',
      preset: 'codesmith',
      scenario: 'fix-failing-test',
      faults: ['overloaded-x3', 'stall-after-first'],
      seed: 1,
    },
    facts: {
      outcome: 'failed',
      reason: 'retries_exhausted',
      verdict: 'not_done',
      turns: 1,
      inputTokens: 0,
      outputTokens: 0,
      usd: 0,
      firstTurnAttempts: 4,
      failures: [
        { iteration: 1, attempt: 1, category: 'overloaded', retried: true, rung: 'silent_retry' },
        { iteration: 1, attempt: 2, category: 'overloaded', retried: true, rung: 'silent_retry' },
        { iteration: 1, attempt: 3, category: 'overloaded', retried: true, rung: 'silent_retry' },
        { iteration: 1, attempt: 4, category: 'timeout', watchdog: 'empty', retried: false },
      ],
    },
    // One turn: the page ends below its attempt cards.
    viewport: { width: 1280, height: 800 },
  },
];

/**
 * What a picture shows of the figures its caption states, as the screenshot step read them from
 * the page it photographed and wrote into the PNG (a tEXt chunk of this keyword): the run
 * header's tokens in / out, cost and turn count, and how many of turn 1's attempt cards are
 * wholly inside the picture.
 */
export const SHOWN_KEYWORD = 'loop-lab:shown';
export const ShownSchema = z
  .object({
    tokens: z.string(),
    cost: z.string(),
    turns: z.string(),
    attemptCards: z.number().int().min(0),
  })
  .strict();
export type Shown = z.infer<typeof ShownSchema>;

/** The run config a picture's run is started with: the same through the HTTP API and in the test. */
export function runConfigOf(picture: ReadmePicture): RunConfigInput {
  const { vendor, preset, scenario, faults, seed } = picture.run;
  const unknown = faults.filter((id) => !FAULT_TOGGLES.some((t) => t.id === id));
  if (unknown.length > 0)
    throw new Error(
      `${picture.file}: no fault toggle ${unknown.join(', ')} in lib/client/forms/fault-catalog.ts`,
    );
  // The plan the playground sends for these toggles, in the catalog's order (the order they play):
  // a caption lists them in that order, so a reader ticking the same boxes gets the same run.
  const plan = faultPlanFor(faults);
  const played = [...plan.rules.map((r) => r.id), ...plan.tools.map((t) => t.id)];
  if (played.join() !== faults.join())
    throw new Error(`${picture.file}: list the faults in the order they play: ${played.join(', ')}`);
  return { provider: { vendor }, preset, scenario, seed, clock: 'virtual', faults: plan };
}
