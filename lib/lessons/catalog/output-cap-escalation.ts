import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const CAP = 300;
const ESCALATED = 600;
const { escalatedCap, maxContinuations } = DEFAULTS;

export const outputCapEscalation: Lesson = {
  slug: 'output-cap-escalation',
  title: 'Output-cap escalation and continuations',
  mechanism: 'output-escalation',
  failure: `The answer is longer than the ${CAP}-token output cap.`,
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 's11',
    policy: 'long-output',
    maxOutputTokens: CAP,
    seed: 61,
    recovery: { output: { escalatedMaxTokens: ESCALATED } },
  },
  timeScale: 0.3,
  text: {
    happens:
      'A response that hits the output cap stops mid-sentence with stop reason max_tokens. Nothing failed; the answer is just not done.',
    does: `s11 first resends the same request with a bigger cap (here ${ESCALATED}; ${escalatedCap} by default), discarding the cut text. If that is cut too, it keeps the text and asks the model to continue from where it stopped, at most ${maxContinuations} times.`,
    costs: `On: one escalated request and ${maxContinuations} continuations — 1,853 tokens of answer over 5 requests, and the answer is whole. Off: the run ends at the first cut, after one request, with ${CAP} tokens: about a sixth of the answer.`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'escalates the cap, then continues until the answer is whole',
    },
    off: { reason: 'max_tokens', complete: false, says: 'ends at the first cut' },
  },
  criterion: {
    says: 'the person gets the whole answer: the loop finishes instead of ending at the cut',
    lines: { complete: 'high' },
  },
  diverges: { turn: 1, on: 'output_recovery' },
};
