import type { Lesson } from '../lesson';

export const retryAfter: Lesson = {
  slug: 'retry-after',
  title: 'Honouring Retry-After',
  mechanism: 'retry-after',
  failure: 'The vendor rate-limits the account for 20 s and says so in a Retry-After header.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 11,
    faults: {
      rules: [{ id: 'rate-limit', label: '429 for 20 s (retry-after 20 s)', when: { kind: 'until', ms: 20_000 }, action: { type: 'http_error', status: 429, retryAfterSec: 20 } }],
      tools: [],
    },
  },
  timeScale: 0.5,
  text: {
    happens: 'A 429 comes with the server’s own answer to "when may I come back": Retry-After: 20. Every request before then is refused again, however many are sent.',
    does: 'With Retry-After honoured, the loop waits exactly what the server asked (capped at a day) instead of its own backoff guess. One wait of 20 s, one retry, done.',
    costs: 'On: one 20 s wait. Off: the loop’s own 1 s, 2 s and 4 s backoff all land inside the limit, each retry is refused again, and the retry budget of 3 is spent in 7 s — the run fails although waiting 13 s longer would have worked.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'waits the 20 s asked for, then finishes' },
    off: { reason: 'retries_exhausted', complete: false, says: 'retries too early three times and gives up' },
  },
  diverges: { turn: 1, on: 'retry_scheduled' },
};
