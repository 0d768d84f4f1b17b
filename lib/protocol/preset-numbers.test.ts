import { describe, expect, it } from 'vitest';
import { findModel } from './models';
import { PRESETS, PRESET_DESCRIPTIONS } from './presets';
import type { PresetId, RecoveryConfig } from './recovery';

/**
 * Every number a preset's description names, and what it is: a value of that preset (checked
 * against it, so a description cannot state a number the engine does not use), or a number of
 * the source or of a vendor that the description names as such (a difference, or a fact). A
 * number in the text that is not listed here fails, and so does a listed value the preset
 * does not have.
 */
type Meaning = { value: (c: RecoveryConfig) => number } | { named: string };

const v = (value: (c: RecoveryConfig) => number): Meaning => ({ value });
const named = (why: string): Meaning => ({ named: why });
const seconds = (ms: number) => ms / 1000;
const percent = (ratio: number) => Math.round(ratio * 100);
/** The SDKs' own retry backoff: not configurable, the same in both vendors' SDKs. */
const SDK = named('the vendor SDK’s own backoff (0.5 s doubling to 8 s, less up to 25 %)');

const NUMBERS: Record<PresetId, Record<string, Meaning[]>> = {
  codesmith: {
    '3': [
      v((c) => c.retry.maxRetries),
      v((c) => c.background.maxRetries),
      v((c) => c.compaction.breakerFailures),
      v((c) => c.tools.blockRepeatAt),
      v((c) => c.tools.warnAfterFailures),
      named('the seed’s HTTP layer retries 3 times: the stacked pair’s sdkMaxRetries'),
    ],
    '1': [
      v((c) => seconds(c.retry.baseDelayMs)),
      v((c) => seconds(c.background.baseDelayMs)),
      v((c) => seconds(c.retry.retryAfterCapMs) / 86_400),
    ],
    '60': [v((c) => seconds(c.retry.maxDelayMs))],
    '10': [v((c) => percent(c.retry.jitterRatio))],
    '120': [v((c) => seconds(c.watchdog.baseMs))],
    '30': [v((c) => seconds(c.watchdog.perRetryMs))],
    '5': [v((c) => c.watchdog.streamErrorCap), v((c) => seconds(c.compaction.breakerCooldownMs) / 60)],
    '2': [
      v((c) => 2 * seconds(c.background.baseDelayMs)),
      v((c) => c.compaction.waterfallBudget),
      v((c) => seconds(c.retry.fixedDelayMs)),
    ],
    '4': [v((c) => 4 * seconds(c.background.baseDelayMs)), v((c) => c.compaction.trimFloor)],
    '8': [v((c) => c.tools.haltAfterFailures), SDK],
    '7': [named('the example of a coerced value, "7" → 7')],
    '262144': [v((c) => c.output.maxTokens)],
    '64000': [v(() => findModel('claude-sim-sonnet')!.maxOutputTokens)],
    '429': [named('the seed’s retryable status codes')],
    '404': [named('an example of a bad request the exclusion rule retries')],
    '500': [named('the seed’s retryable status codes')],
    '502': [named('the seed’s retryable status codes')],
    '503': [named('the seed’s retryable status codes')],
    '504': [named('the seed’s retryable status codes')],
    '408': [named('the SDK’s own retryable status codes')],
    '409': [named('the SDK’s own retryable status codes')],
    '0.5': [SDK],
    '25': [SDK],
    '75': [v((c) => percent(c.compaction.thresholdRatio))],
    '0': [v((c) => c.cache.protectionFloorTokens)],
  },
  s11: {
    '10': [v((c) => c.retry.maxRetries + 1)],
    '429': [v((c) => (c.retry.retryOn === 'rate_limit_overloaded' ? 429 : NaN))],
    '529': [v((c) => (c.retry.retryOn === 'rate_limit_overloaded' ? 529 : NaN))],
    '500': [v((c) => c.retry.baseDelayMs)],
    '2': [named('the exponential base: every preset doubles')],
    '32': [v((c) => seconds(c.retry.maxDelayMs))],
    '0': [v((c) => (c.retry.jitterMode === 'additive' ? 0 : NaN))],
    '25': [v((c) => percent(c.retry.jitterRatio))],
    '3': [v((c) => c.fallback.afterOverloads), v((c) => c.output.maxContinuations)],
    '8000': [v((c) => c.output.maxTokens)],
    '64000': [v((c) => c.output.escalatedMaxTokens)],
    '5': [v((c) => c.compaction.reactiveKeepMessages)],
    '6': [v((c) => c.compaction.reactiveKeepMessages + 1)],
  },
  course: {
    '3': [v((c) => c.tools.failureBudget)],
    '4000': [v((c) => c.tools.truncateChars)],
    '1000': [v((c) => c.context.oldResultMinChars)],
    '2': [v((c) => c.context.keepRecentIterations)],
    '30': [v((c) => seconds(c.tools.timeoutMs))],
    '8192': [v((c) => c.output.maxTokens)],
    '2048': [named('the course’s sample call: max_tokens=2048')],
    '15': [named('the course’s iteration budget: a run budget, not a preset')],
  },
  naive: {},
  'sdk-default': {
    '2': [v((c) => c.sdkMaxRetries)],
    '0.5': [SDK],
    '8': [SDK],
    '25': [SDK],
  },
};

/** The numbers a text names, as written: "262,144" → "262144"; a digit inside a name (s08, s11) is not one. */
function numbersIn(text: string): string[] {
  return [...text.matchAll(/(?<![\w.])\d[\d,]*(?:\.\d+)?/g)].map((m) =>
    m[0].replace(/,(?=\d{3})/g, '').replace(/,$/, ''),
  );
}

describe('every number a preset’s description names is that preset’s value, or named as the source’s', () => {
  for (const id of Object.keys(PRESETS) as PresetId[]) {
    it(id, () => {
      const { summary, differs = '' } = PRESET_DESCRIPTIONS[id];
      const table = NUMBERS[id];
      for (const said of numbersIn(`${summary} ${differs}`)) {
        const meanings = table[said];
        expect(meanings, `${id}: "${said}" is named in the description but not accounted for`).toBeDefined();
      }
      for (const [said, meanings] of Object.entries(table)) {
        expect(
          numbersIn(`${summary} ${differs}`),
          `${id}: ${said} is listed but the description no longer names it`,
        ).toContain(said);
        for (const meaning of meanings) {
          if ('value' in meaning)
            expect(meaning.value(PRESETS[id]), `${id}: the description says ${said}`).toBe(Number(said));
        }
      }
    });
  }

  it('a wrong number in a description is caught', () => {
    expect(numbersIn('3 retries, 1 s doubling to 60 s ±10 %; 262,144 tokens; s08; 0.5 s')).toEqual([
      '3',
      '1',
      '60',
      '10',
      '262144',
      '0.5',
    ]);
  });
});
