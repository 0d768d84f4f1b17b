import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';
import { formatMs } from '@/lib/protocol';

const { breakerFailures, breakerCooldown } = DEFAULTS;
const COOLDOWN_MS = 2_000;
/**
 * The summary requests that fail: every one up to the run's 15th request. Counted in requests, not
 * run time, so a live run on a busy machine (whose own time stretches the run clock) has the same outage.
 */
const DOWN_UNTIL_REQUEST = 15;

export const breakerHalfOpen: Lesson = {
  slug: 'breaker-half-open',
  title: 'The breaker’s half-open probe',
  mechanism: 'circuit-breaker',
  failure: `The summarizer fails (HTTP 500) until the run’s ${DOWN_UNTIL_REQUEST}th request, then recovers.`,
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
    preset: 'codesmith',
    scenario: 'growing-context',
    seed: 53,
    recovery: { compaction: { thresholdRatio: 0.3, breakerCooldownMs: COOLDOWN_MS } },
    faults: {
      rules: [
        {
          id: 'summarizer',
          label: '500 on summary calls',
          target: 'background',
          when: { kind: 'requests', numbers: Array.from({ length: DOWN_UNTIL_REQUEST }, (_, i) => i + 1) },
          action: { type: 'http_error', status: 500 },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.5,
  text: {
    happens:
      'An outage ends. A breaker that opened on a broken summarizer has to find out when it works again, without going back to calling it before every turn.',
    does: `After ${breakerFailures} failed summary calls in a row the breaker opens for its cooldown (here ${formatMs(COOLDOWN_MS)} of run time; ${breakerCooldown} by default). When the cooldown is over, the next summary call goes through as a probe (half-open): if it fails, the breaker opens again for another cooldown; if it succeeds, the breaker closes and summaries run as before.`,
    costs: `On: ${breakerFailures} failures open the breaker; the probe at turn 12 fails (the summarizer is still down) and it opens again; the probe at turn 15 succeeds and closes it — 4 failed summary requests, 4 summaries skipped without a call. Off: a failing summary request on every turn until the outage is over — 5 of them — and the first summary at turn 12. The breaker’s price: the history is summarised three turns later, so the on side sends about 29,000 more input tokens.`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'opens, probes after the cooldown, closes when the probe succeeds',
    },
    off: {
      reason: 'end_turn',
      complete: true,
      says: 'calls the broken summarizer every turn until it recovers',
    },
  },
  criterion: {
    says: 'requests wasted on a summarizer that keeps failing: model requests and failed attempts',
    lines: { attempts: 'low', failedAttempts: 'low' },
  },
  diverges: { turn: 7, on: 'breaker' },
};
