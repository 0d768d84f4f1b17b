import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { warnAfterFailures, haltAfterFailures } = DEFAULTS;

export const loopGuardHalt: Lesson = {
  slug: 'loop-guard-halt',
  title: 'The loop guard’s halt',
  mechanism: 'loop-guard',
  failure:
    'The model is sure a config file exists and reads one guessed path after another; every read fails, and no two are the same.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    policy: 'guess-paths',
    seed: 29,
    budgets: { maxIterations: 20 },
  },
  timeScale: 0.5,
  text: {
    happens:
      'A model stuck on a wrong idea does not always repeat itself: it tries one variation after another. No two calls are the same, so no repeat is blocked, and every one of them fails.',
    does: `The guard also counts a tool’s consecutive failures, whatever the arguments: from ${warnAfterFailures} in a row each result carries a warning to step back, and at ${haltAfterFailures} the run is halted (tool_halt).`,
    costs: `On: ${haltAfterFailures} failed reads, ${haltAfterFailures - warnAfterFailures} of them with a warning, then the halt at turn ${haltAfterFailures} — $0.019. Off: only the run’s iteration budget stops the guessing: 20 failed reads for $0.034, about twice the cost, and nothing more done. The guard does not fix the model; it stops paying for it, and says why.`,
  },
  expect: {
    on: { reason: 'tool_halt', complete: false, says: `halted after ${haltAfterFailures} failures in a row` },
    off: { reason: 'max_iterations', complete: false, says: 'guesses until the iteration budget runs out' },
  },
  criterion: {
    says: 'what a model that makes no progress is allowed to spend: model requests and cost',
    lines: { attempts: 'low', usd: 'low' },
  },
  diverges: { turn: 3, on: 'tool_guard' },
};
