import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

export const overflowWaterfall: Lesson = {
  slug: 'overflow-waterfall',
  title: 'The context overflow waterfall',
  mechanism: 'overflow-waterfall',
  failure: 'A request is over the model’s 16k window and the vendor refuses it as too long.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
    preset: 'codesmith',
    scenario: 'growing-context',
    seed: 47,
    recovery: { compaction: { proactive: false } },
  },
  timeScale: 0.5,
  text: {
    happens:
      'A context-length error is not transient: sending the same request again gets the same answer. Something has to come out of the request first.',
    does: `The waterfall tries the cheapest fix first and stops when the vendor accepts: clear old tool results (micro-compact), then force a full summary, then trim the oldest messages keeping at least ${DEFAULTS.trimFloor} — with a budget of ${DEFAULTS.waterfallBudget} recoveries, which starts over once a request goes through.`,
    costs:
      'On: at turn 15 one micro-compact takes the request from 16,239 to 3,002 tokens; it is resent, accepted, and the run finishes. Off: the refusal ends the run at turn 15.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'a micro-compact makes room and the step is resent' },
    off: { reason: 'model_error', complete: false, says: '"prompt is too long" ends the run' },
  },
  criterion: {
    says: 'the work gets done past the window: the loop finishes, the task is done, and the refusal never reaches the person',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 15, on: 'retry_declined' },
};
