import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

export const outputTruncation: Lesson = {
  slug: 'output-truncation',
  title: 'Tool output truncation',
  mechanism: 'output-truncation',
  failure: 'The model reads a 2,400-line service log (160,345 characters) in one call.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'course',
    scenario: 'huge-log',
    seed: 37,
  },
  timeScale: 1,
  text: {
    happens:
      'One tool result can be larger than the model’s whole context window. Sent as it is, the next request is refused as too long.',
    does: `The executor cuts tool output over ${DEFAULTS.truncateChars} characters and appends a note saying how to get the rest — an offset, or a narrower search pattern. The model follows the note and searches for what it needs.`,
    costs: `On: the read returns at most ${DEFAULTS.truncateChars} characters and a note; a few more small calls (a search for ERROR, the config) and the task is done. Off: the whole read — 142,324 characters, read_file’s first 2,000 lines — goes into the next request: 65,438 tokens against a 32,000-token window — the vendor answers "prompt is too long", and the run ends there.`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'the read is cut with a note; the model narrows its search',
    },
    off: { reason: 'model_error', complete: false, says: 'the next request is over the window and refused' },
  },
  criterion: {
    says: 'the work gets done although a tool returned far more than the window holds: the loop finishes, the task is done, no error shown',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 3, on: 'tool_call' },
};
