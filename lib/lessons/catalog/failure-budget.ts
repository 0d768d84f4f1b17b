import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

export const failureBudget: Lesson = {
  slug: 'failure-budget',
  title: 'Failure budget and short-circuit',
  mechanism: 'failure-budget',
  failure: 'The model asks for a file that does not exist, and repeats the call after it fails.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'course',
    policy: 'repeat-on-failure',
    seed: 29,
  },
  timeScale: 0.5,
  text: {
    happens:
      'A failed call repeated with the same arguments will fail again; a tool that keeps failing is probably broken for this run.',
    does: `The course’s SafeExecutor answers an exact repeat of a failed call at once, without running it (a short-circuit), and gives each tool a failure budget of ${DEFAULTS.failureBudget}: past it the tool is disabled for the run and says so. Short-circuits spend none of that budget, so here it never runs out — each result shows how much is left (the lesson "Specific tool errors" plays a tool that uses it up).`,
    costs:
      'On: the three repeats are answered without running read_file, with a note that the call already failed and must not be repeated. Off: read_file runs four times for the same error. The turns around the repeats are paid for either way — the longer note even adds about 300 input tokens; the saving is in tool runs.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'repeats are short-circuited without running' },
    off: { reason: 'end_turn', complete: true, says: 'every repeat runs the tool again' },
  },
  criterion: {
    says: 'how often a call already known to fail is run again: tool runs that failed',
    lines: { failedToolRuns: 'low' },
  },
  diverges: { turn: 2, on: 'tool_guard' },
};
