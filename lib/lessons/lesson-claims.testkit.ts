import { expect } from 'vitest';
import { CONTEXT_CLAIMS } from './claims/context.testkit';
import { MODEL_CALL_CLAIMS } from './claims/model-calls.testkit';
import type { Check } from './claims/support.testkit';
import { TAKEOVER_CLAIMS } from './claims/takeover.testkit';
import { TOOL_CLAIMS } from './claims/tools.testkit';
import { VERDICT_CLAIMS } from './claims/verdict.testkit';
import { LESSONS } from './index';

/**
 * Test support: every claim a lesson's text makes, checked against the two runs it plays.
 * A number the text quotes from a run is computed from the events and must appear in
 * the text as written, so prose and run cannot drift apart; numbers from the presets come
 * into the text through lib/mechanisms/defaults.ts and are checked against the events.
 * The claims are written by area in ./claims/, one file each.
 */

export type { PlayedSides } from './claims/support.testkit';

const AREAS: readonly Record<string, Check>[] = [
  MODEL_CALL_CLAIMS,
  TOOL_CLAIMS,
  CONTEXT_CLAIMS,
  TAKEOVER_CLAIMS,
  VERDICT_CLAIMS,
];

export const LESSON_CLAIMS: Record<string, Check> = {};
for (const area of AREAS)
  for (const [slug, check] of Object.entries(area)) {
    if (LESSON_CLAIMS[slug]) throw new Error(`lesson ${slug}: its claims are written twice`);
    LESSON_CLAIMS[slug] = check;
  }

// A lesson that keeps its claims beside it (a mechanism module's, in its folder) is checked the same way.
for (const lesson of LESSONS) {
  const own = lesson.claims;
  if (own) {
    if (LESSON_CLAIMS[lesson.slug]) throw new Error(`lesson ${lesson.slug}: its claims are written twice`);
    LESSON_CLAIMS[lesson.slug] = (l, runs) => own(l, runs, expect);
  }
}
