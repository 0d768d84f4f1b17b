import type { Lesson } from '../lesson';

export const outputTruncation: Lesson = {
  slug: 'output-truncation',
  title: 'Tool output truncation',
  mechanism: 'output-truncation',
  failure: 'The model reads a 200 KB service log whole.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'course',
    scenario: 'huge-log',
    seed: 37,
  },
  timeScale: 1,
  text: {
    happens: 'One tool result can be larger than the model’s whole context window. Sent as it is, the next request is refused as too long.',
    does: 'The executor cuts tool output over 4,000 characters and appends a note saying how to get the rest — an offset, or a narrower search pattern. The model follows the note and searches for what it needs.',
    costs: 'On: a few more small calls. Off: the whole log goes into the next request, the vendor answers "prompt is too long", and the run ends there.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'the read is cut with a note; the model narrows its search' },
    off: { reason: 'model_error', complete: false, says: 'the next request is over the window and refused' },
  },
  diverges: { turn: 3, on: 'tool_call' },
};
