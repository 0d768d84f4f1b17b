import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { retries } = DEFAULTS;

export const retryAmplification: Lesson = {
  slug: 'retry-amplification',
  title: 'Retry amplification: one outage, many requests',
  mechanism: 'one-retry-layer',
  failure:
    'The vendor answers every request with 503 Service Unavailable for the first 5 seconds of the run.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 11,
    faults: {
      rules: [
        {
          id: 'outage',
          label: '503 for 5 s',
          when: { kind: 'until', ms: 5_000 },
          action: { type: 'http_error', status: 503 },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.5,
  text: {
    happens:
      'Retries hide in more than one place. CodeSmith’s seed has two layers: an HTTP layer that retries 429 and 5xx answers 3 times, beneath an engine layer that retries again (a fixed 2 s sleep on rate limits, at once otherwise). The everyday version is the vendor SDK’s own retries left on beneath the loop’s. Each layer is reasonable alone; stacked, their counts multiply, and every extra request lands on a service that is already failing.',
    does: `With one layer the loop alone retries, backing off 1 s, 2 s, 4 s between tries (${retries} retries per call). With the layers stacked, each loop attempt is up to 4 HTTP requests: the SDK resends on its own, and the page counts every request it sent (sdk_retry) beside the loop's attempts.`,
    costs:
      'On: 4 HTTP requests for the outage, 3 of them failed, after 7.4 s of backoff. Off: 8 HTTP requests for the same outage — the SDK resent 6 of them on its own — 7 failed, and the loop never backed off. Both finish the task; in a real outage each request is load on a service trying to recover, and many clients doing the same keep it down longer.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'one layer: 4 requests for the outage, the task finished',
    },
    off: {
      reason: 'end_turn',
      complete: true,
      says: 'stacked layers: the SDK resends beneath every loop attempt',
    },
  },
  criterion: {
    says: 'HTTP requests sent into the outage for the same finished work',
    lines: { httpRequests: 'low' },
  },
  diverges: { turn: 1, on: 'model_error' },
};
