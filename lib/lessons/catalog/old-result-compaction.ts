import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { oldResultMinChars, keepRecentIterations } = DEFAULTS;

export const oldResultCompaction: Lesson = {
  slug: 'old-result-compaction',
  title: 'Old-result compaction',
  mechanism: 'old-result-compaction',
  failure: 'The task reads twelve long runbooks, one per turn, on a model with a 16k window.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
    preset: 'course',
    scenario: 'growing-context',
    seed: 41,
  },
  timeScale: 0.5,
  text: {
    happens:
      'Every tool result stays in the history and is sent again with every later request. Results the model has already used keep taking room in the window, turn after turn, until the answer has none left.',
    does: `On the copy sent to the vendor (never in the log), tool results over ${oldResultMinChars} characters older than the last ${keepRecentIterations} turns are replaced by a short stub saying how to get them back. Each stubbing is a compaction event.`,
    costs:
      'On: one runbook stubbed per turn from turn 7 on, so the largest request is 5,237 tokens of its 16,000, the loop finishes, and it sends less than half the input tokens (69.8k against 155.5k). But the tokens fall while the cost rises: a stub changes an old message, so the prompt no longer begins as the one the vendor cached, and the 12 requests that stub a runbook read nothing from the prompt cache and write their whole prompt to it again, at the write price — $0.080 on against $0.039 off. Off: the history grows until the last answer has no room left and is cut; until then 88 % of what it sent was read back from the cache, cheaply.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'old results are stubbed; the task is finished' },
    off: { reason: 'max_tokens', complete: false, says: 'the context fills until the answer is cut' },
  },
  criterion: {
    says: 'the answer fits and fewer tokens are sent: the loop finishes, fewer tokens in (though it costs more: the stubs break the prompt cache)',
    lines: { complete: 'high', inputTokens: 'low' },
  },
  diverges: { turn: 7, on: 'compaction' },
};
