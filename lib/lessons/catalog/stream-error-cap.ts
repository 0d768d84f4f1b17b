import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const RETRIES = 10;
const CAP = DEFAULTS.streamErrorCap;

export const streamErrorCap: Lesson = {
  slug: 'stream-error-cap',
  title: 'The stream error cap',
  mechanism: 'stream-error-cap',
  failure: 'Every stream arrives broken: its first JSON record is cut short.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 5,
    recovery: { retry: { maxRetries: RETRIES } },
    faults: {
      rules: [
        {
          id: 'malformed',
          label: 'malformed JSON, every stream',
          when: { kind: 'always' },
          action: { type: 'malformed', afterEvents: 0 },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.04,
  text: {
    happens: `Something between the loop and the vendor corrupts every stream. A single broken stream is worth retrying; the same break ${CAP} times in a row is not bad luck any more.`,
    does: `The loop counts consecutive stream errors on a call and gives up after ${CAP}, whatever retry budget is left — here the budget allows ${RETRIES} retries.`,
    costs: `On: the call fails after ${CAP} attempts and 15.5 s of backoff. Off (cap out of reach): the same failure after ${RETRIES + 1} attempts and 5 min 3 s of backoff. The outcome is no better; only later.`,
  },
  expect: {
    on: { reason: 'retries_exhausted', complete: false, says: `stops after ${CAP} broken streams` },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: `spends the whole budget of ${RETRIES} retries first`,
    },
  },
  criterion: {
    says: 'how much a call that cannot succeed spends before it gives up: run time and requests',
    lines: { durationMs: 'low', attempts: 'low', failedAttempts: 'low' },
  },
  diverges: { turn: 1, on: 'retry_declined' },
};
