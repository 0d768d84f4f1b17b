import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { blockRepeatAt, warnAfterFailures, haltAfterFailures } = DEFAULTS;

export const loopGuard: Lesson = {
  slug: 'loop-guard',
  title: 'The loop guard',
  mechanism: 'loop-guard',
  failure: 'The model repeats the exact tool call that just failed, again and again.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    policy: 'repeat-on-failure',
    seed: 23,
  },
  timeScale: 0.5,
  text: {
    happens:
      'A model that got an error sometimes "tries again" with the very same arguments. Nothing has changed, so the result will not either; with a tool that has side effects or costs, each repeat is paid for.',
    does: `The guard counts identical calls: call #${blockRepeatAt} of the same tool with the same arguments is blocked without running, and its result tells the model why. ${warnAfterFailures} failures in a row add a warning; ${haltAfterFailures} would halt the run. (This simulated model gives up after 4 tries on its own; a stuck real one may not.)`,
    costs:
      'On: the third and fourth identical calls never run, and the model is told plainly to change course. Off: all four run and fail the same way. Tokens are not what is saved here — the guard’s explanation is longer than the error it replaces, so the on side sends about 1,100 more input tokens; what is saved is two runs of a failing tool, which in real work may write, spend or wait.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: `call #${blockRepeatAt} and later identical calls are blocked with an explanation`,
    },
    off: { reason: 'end_turn', complete: true, says: 'the same failing call runs four times' },
  },
  criterion: {
    says: 'how often a call already known to fail is run again: tool runs that failed',
    lines: { failedToolRuns: 'low' },
  },
  diverges: { turn: 3, on: 'tool_guard' },
};
