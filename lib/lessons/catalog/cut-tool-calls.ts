import type { Lesson } from '../lesson';

const CAP = 80;

export const cutToolCalls: Lesson = {
  slug: 'cut-tool-calls',
  title: 'Tool calls cut by the output cap',
  mechanism: 'refuse-cut-calls',
  failure: `The model writes its fix as the whole file in one write_file call, longer than the ${CAP}-token output cap.`,
  config: {
    provider: { vendor: 'sim-anthropic', thinking: false },
    preset: 'codesmith',
    policy: 'write-whole-file',
    maxOutputTokens: CAP,
    seed: 83,
  },
  timeScale: 0.5,
  text: {
    happens:
      'A tool call streams like text. When the output cap stops a response inside a call’s arguments, what arrived is the first part of a JSON object — for write_file, the first part of the file.',
    does: 'The output cap sees the round end on max_tokens with a call whose arguments do not parse: it refuses that call without running it and tells the model it was cut, to resend it smaller. The repair ladder never sees it — closing a cut-off brace is a safe repair for a slip, not for half a file.',
    costs:
      'On: the cut write_file is refused; the model makes a small edit instead, and the task is done. Off: the repair ladder closes the string and the brace, and write_file overwrites src/slugify.js with the first 223 of its 378 characters. The file no longer compiles, the edit that follows cannot find its text, and the task is not done — while the run ends as "complete" all the same.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'the cut call is refused; a small edit does the fix' },
    off: {
      reason: 'end_turn',
      complete: true,
      says: 'the cut call is repaired and run: half the file is written',
    },
  },
  criterion: {
    says: 'the work is really done, not a half-written file: the task verdict',
    lines: { verdict: 'high' },
  },
  diverges: { turn: 7, on: 'output_recovery' },
};
