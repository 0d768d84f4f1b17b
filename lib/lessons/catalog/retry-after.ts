import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const LIMIT_S = 20;
const { retries, backoffSteps, retryAfterCap } = DEFAULTS;

export const retryAfter: Lesson = {
  slug: 'retry-after',
  title: 'Honouring Retry-After',
  mechanism: 'retry-after',
  failure: `The vendor rate-limits the account for ${LIMIT_S} s and says so in a Retry-After header.`,
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 11,
    faults: {
      rules: [
        {
          id: 'rate-limit',
          label: `429 for ${LIMIT_S} s (retry-after ${LIMIT_S} s)`,
          when: { kind: 'until', ms: LIMIT_S * 1000 },
          action: { type: 'http_error', status: 429, retryAfterSec: LIMIT_S },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.3,
  text: {
    happens: `A 429 comes with the server’s own answer to "when may I come back": Retry-After: ${LIMIT_S}. Every request before then is refused again, however many are sent.`,
    does: `With Retry-After honoured, the loop waits exactly what the server asked (capped at ${retryAfterCap}) instead of its own backoff guess. One wait of ${LIMIT_S} s, one retry, done.`,
    costs: `On: one ${LIMIT_S} s wait. Off: the loop’s own backoff (about ${backoffSteps.join(', ')}) lands inside the limit every time, each retry is refused again, and the retry budget of ${retries} is spent on waits that add up to 7.4 s — the run fails although one wait of ${LIMIT_S} s would have worked.`,
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: `waits the ${LIMIT_S} s asked for, then finishes` },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: `retries too early ${retries} times and gives up`,
    },
  },
  criterion: {
    says: 'the work gets done without hammering a rate-limited server: the loop finishes, the task is done, no error shown, fewer refused requests',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low', failedAttempts: 'low' },
  },
  diverges: { turn: 1, on: 'retry_scheduled' },
};
