import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

export const reactiveCompact: Lesson = {
  slug: 'reactive-compact',
  title: 'Reactive compact (s11)',
  mechanism: 'reactive-compact',
  failure: 'The history outgrows the 16k window on a preset that does not compact ahead of time.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
    preset: 's11',
    scenario: 'growing-context',
    seed: 59,
  },
  timeScale: 0.5,
  text: {
    happens:
      'learn-claude-code s11 keeps no running summary. Its only answer to a full context is to react when the vendor refuses.',
    does: `On "prompt too long" it keeps the last ${DEFAULTS.reactiveKeep} messages — here 6: the oldest of those ${DEFAULTS.reactiveKeep} is a tool result, and a cut never separates a result from its call — adds a note so the task stays in view, drops the rest and retries, once per run.`,
    costs:
      'On: at turn 15 the request drops from 29 messages to 7 (the note and the 6 kept); the run gets a second life of 11 more turns and ends at the next overflow, at turn 26, since the compact is spent. Off: the first refusal ends the run at turn 15. Either way the work is not finished: a reactive cut buys time, not room.',
  },
  expect: {
    on: {
      reason: 'context_overflow',
      complete: false,
      says: 'one reactive trim, then the next overflow ends the run',
    },
    off: { reason: 'model_error', complete: false, says: 'the first "prompt is too long" ends the run' },
  },
  criterion: {
    says: 'how long the run keeps working before the window ends it: turns done',
    lines: { turns: 'high' },
  },
  diverges: { turn: 15, on: 'retry_declined' },
};
