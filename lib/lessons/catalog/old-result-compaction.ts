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
      'Every tool result stays in the history and is sent again with every later request. Results the model has already used keep taking room — and money — turn after turn.',
    does: `On the copy sent to the vendor (never in the log), tool results over ${oldResultMinChars} characters older than the last ${keepRecentIterations} turns are replaced by a short stub saying how to get them back. Each stubbing is a compaction event.`,
    costs:
      'On: one runbook stubbed per turn from turn 7 on, so no request goes past 4,900 tokens of its 16,000 and input tokens stay low. Off: the history grows until the last answer has no room left and is cut, having paid for more than twice the input tokens (155.5k against 69.8k).',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'old results are stubbed; the task is finished' },
    off: { reason: 'max_tokens', complete: false, says: 'the context fills until the answer is cut' },
  },
  criterion: {
    says: 'the answer fits and the input paid for stays small: the loop finishes, fewer tokens in',
    lines: { complete: 'high', inputTokens: 'low' },
  },
  diverges: { turn: 7, on: 'compaction' },
};
