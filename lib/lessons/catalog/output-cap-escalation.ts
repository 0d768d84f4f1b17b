import type { Lesson } from '../lesson';

export const outputCapEscalation: Lesson = {
  slug: 'output-cap-escalation',
  title: 'Output-cap escalation and continuations',
  mechanism: 'output-escalation',
  failure: 'The answer is longer than the 300-token output cap.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 's11',
    policy: 'long-output',
    maxOutputTokens: 300,
    seed: 61,
    recovery: { output: { escalatedMaxTokens: 600 } },
  },
  timeScale: 0.6,
  text: {
    happens: 'A response that hits the output cap stops mid-sentence with stop reason max_tokens. Nothing failed; the answer is just not done.',
    does: 's11 first resends the same request with a bigger cap (here 600; 64 K by default), discarding the cut text. If that is cut too, it keeps the text and asks the model to continue from where it stopped, at most 3 times.',
    costs: 'On: an escalated request and continuations — more tokens and time, and a whole answer. Off: the run ends at the first cut with a third of an answer.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'escalates the cap, then continues until the answer is whole' },
    off: { reason: 'max_tokens', complete: false, says: 'ends at the first cut' },
  },
  diverges: { turn: 1, on: 'output_recovery' },
};
