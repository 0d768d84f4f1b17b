import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { breakerFailures, breakerCooldown } = DEFAULTS;

export const circuitBreaker: Lesson = {
  slug: 'circuit-breaker',
  title: 'The summary circuit breaker',
  mechanism: 'circuit-breaker',
  failure: 'Every summary call fails (HTTP 500) while the context keeps needing compaction.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
    preset: 'codesmith',
    scenario: 'growing-context',
    seed: 53,
    recovery: { compaction: { thresholdRatio: 0.3 } },
    faults: {
      rules: [
        {
          id: 'summarizer',
          label: '500 on summary calls',
          target: 'background',
          when: { kind: 'always' },
          action: { type: 'http_error', status: 500 },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.5,
  text: {
    happens:
      'Compaction itself calls a model. When that call is broken, a loop that asks for a summary every turn pays for a failing request every turn.',
    does: `After ${breakerFailures} failed summary calls in a row the breaker opens: for ${breakerCooldown} of run time compaction skips the summary without calling the model, and the waterfall’s local steps (micro-compact, hard trim) handle an overflow. Then one probe is let through (half-open); a manual compact bypasses the breaker. (This run ends long before ${breakerCooldown} of run time, so the probe never comes.)`,
    costs: `On: ${breakerFailures} failed summary requests, then the breaker refuses 6 more without calling. Off: a failing summary request on each of those 9 turns — three times the wasted requests, for the same outcome (failed requests bill nothing here, so it shows in requests and errors, not dollars).`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: `the breaker opens after ${breakerFailures} failed summaries`,
    },
    off: { reason: 'end_turn', complete: true, says: 'keeps calling the broken summarizer every turn' },
  },
  criterion: {
    says: 'requests wasted on a summarizer that keeps failing: model requests and failed attempts',
    lines: { attempts: 'low', failedAttempts: 'low' },
  },
  diverges: { turn: 7, on: 'breaker' },
};
