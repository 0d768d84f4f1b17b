import type { Lesson } from '../lesson';

export const argRepair: Lesson = {
  slug: 'arg-repair',
  title: 'Tool-argument repair',
  mechanism: 'arg-repair',
  failure:
    'The model sends tool arguments that are not valid JSON or not quite the schema: a trailing comma, single quotes, unquoted keys, a number as a string, a cut-off closing brace.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    policy: 'damaged-args',
    seed: 5,
  },
  timeScale: 1,
  text: {
    happens:
      'Models write JSON by predicting it, and now and then it comes out almost right. The loop could run none of these calls as sent; asking again costs a whole turn each time — the conversation so far sent once more, to fix a comma.',
    does: 'Before the model is asked again, the arguments climb a ladder: parse; repair the JSON text with jsonrepair (trailing commas, single quotes, unquoted keys, a cut-off closing brace); coerce values the tool’s schema takes only one way ("50" for a number becomes 50); only then re-ask with the specific error. Each rung that changes something is an event saying what it changed, and the call is marked as repaired.',
    costs:
      'On: 5 calls repaired, each run on the first try; the task takes 9 turns. Off: each of the 5 damaged calls fails with a specific error and is sent again, 5 extra turns and about 8,700 more input tokens. A repair is only safe where the intent is unambiguous: "seven" for a number, or a value of the wrong kind, still goes back to the model.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'each damaged call is repaired and runs on the first try',
    },
    off: {
      reason: 'end_turn',
      complete: true,
      says: 'each damaged call fails and is sent again in a turn of its own',
    },
  },
  criterion: {
    says: 'turns and tokens spent on arguments that were almost right',
    lines: { turns: 'low', inputTokens: 'low', failedToolRuns: 'low' },
  },
  diverges: { turn: 2, on: 'arg_repair' },
};
