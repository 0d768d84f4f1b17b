import type { RunEvent } from '@/lib/protocol';
import type { Lesson } from '@/lib/lessons/lesson';
import { of, type MechanismSteps } from '@/lib/lessons/count-steps';

export const subagentsLesson: Lesson = {
  slug: 'subagents',
  title: 'Sub-agents and their retry accounts',
  mechanism: 'subagents',
  failure: 'TODO',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 3,
    recovery: { tools: { delegate: true } },
    budgets: { maxAttempts: 20 },
    faults: {
      rules: [
        {
          id: 'limit',
          enabled: true,
          when: { kind: 'requests', numbers: [2, 3, 4, 5, 6, 7, 8, 9, 10] },
          action: { type: 'http_error', status: 429 },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.2,
  text: { happens: 'TODO', does: 'TODO', costs: 'TODO' },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'TODO' },
    off: { reason: 'attempt_budget', complete: false, says: 'TODO' },
  },
  criterion: { says: 'the run ends with its work done', lines: { complete: 'high' } },
  diverges: { turn: 1, on: 'subagent_end' },
};

/** What the mechanism did in a run, counted from its events (the lesson's report). */
export const steps = (log: readonly RunEvent[]): MechanismSteps => ({
  count: of(log, 'subagent_start').length,
  noun: ['sub-agent started', 'sub-agents started'],
});

/** Its lesson, after the one it follows in teaching order. */
export const LESSON = { lesson: subagentsLesson, steps, after: 'structured-answer' };
