import { expect } from 'vitest';
import type { EventOf, RunEvent, RunEventType } from '@/lib/protocol';
import { PRESETS } from '@/lib/protocol';
import { DEFAULTS } from '@/lib/mechanisms/defaults';
import type { Lesson } from '../lesson';

/**
 * Test support for the lessons' claims: reading a played side's events, and writing its numbers
 * the way a lesson's text writes them, so each claim can look for them in the text as written.
 */

export interface PlayedSides {
  on: RunEvent[];
  off: RunEvent[];
}

export const of = <T extends RunEventType>(log: RunEvent[], type: T): EventOf<T>[] =>
  log.filter((e): e is EventOf<T> => e.event === type);
export const end = (log: RunEvent[]) => log.at(-1) as EventOf<'terminate'>;
export const foreground = (log: RunEvent[]) => of(log, 'model_request').filter((e) => !e.background);
export const toolCalls = (log: RunEvent[], tool: string) =>
  of(log, 'tool_call').filter((e) => e.tool === tool);
/** 3,000 → "3.0 s". */
export const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** 304,254 → "5 min 4 s". */
export const minSec = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
export const n = (x: number) => x.toLocaleString('en-US');
/** 155,537 → "155.5k". */
export const k1 = (x: number) => `${(x / 1000).toFixed(1)}k`;
/** 0.080135 → "$0.080". */
export const usd3 = (x: number) => `$${x.toFixed(3)}`;

/** The run clock a side spent waiting before its retries. */
export const waited = (log: RunEvent[]) => of(log, 'retry_scheduled').reduce((sum, w) => sum + w.wait_ms, 0);
/** A side's retry waits as a lesson lists them: 1,000, 2,100, 4,000 → "1.0, 2.1 and 4.0 s". */
export const waitList = (log: RunEvent[]) =>
  `${of(log, 'retry_scheduled')
    .map((w) => (w.wait_ms / 1000).toFixed(1))
    .join(', ')
    .replace(/, ([^,]*)$/, ' and $1')} s`;

/**
 * A naive history's 400 under CodeSmith's exclusion rule: the first refused request and every
 * resend the budget allows, each refused the same way and each retry saying the rule overruled
 * the classifier; the text names the count and the backoff waited.
 */
export function refusedOnEveryResend(
  lesson: Lesson,
  off: RunEvent[],
  status: number,
): EventOf<'model_error'> {
  const refused = of(off, 'model_error');
  expect(refused.map((e) => e.status)).toEqual(Array.from({ length: DEFAULTS.retries + 1 }, () => status));
  expect(new Set(refused.map((e) => e.message)).size).toBe(1);
  const waits = of(off, 'retry_scheduled');
  expect(waits).toHaveLength(DEFAULTS.retries);
  for (const w of waits) expect(w.reason).toContain('retried although the classifier calls it final');
  for (const w of waits) expect(w.reason).toContain('CodeSmith’s exclusion rule');
  expect(of(off, 'retry_declined')).toMatchObject([{ rule: 'budget_spent' }]);
  expect(lesson.text.costs).toContain(`${s1(waited(off))} of backoff`);
  expect(lesson.text.costs).toMatch(
    new RegExp(`refused ${DEFAULTS.retries + 1} times|the ${DEFAULTS.retries} resends`),
  );
  expect(PRESETS.codesmith.retry.retryOn).toBe('exclusion');
  return refused[0]!;
}

export type Check = (lesson: Lesson, runs: PlayedSides) => void;
