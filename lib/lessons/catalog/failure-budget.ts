import type { Lesson } from '../lesson';

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
  timeScale: 1,
  text: {
    happens: 'A failed call repeated with the same arguments will fail again; a tool that keeps failing is probably broken for this run.',
    does: 'The course’s SafeExecutor answers an exact repeat of a failed call at once, without running it (a short-circuit), and gives each tool a failure budget of 3: past it the tool is disabled for the run and says so.',
    costs: 'On: the repeats cost nothing and return in 0 ms, with a note that the call already failed. Off: every repeat runs the tool again for the same error.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'repeats are short-circuited without running' },
    off: { reason: 'end_turn', complete: true, says: 'every repeat runs the tool again' },
  },
  diverges: { turn: 2, on: 'tool_guard' },
};
