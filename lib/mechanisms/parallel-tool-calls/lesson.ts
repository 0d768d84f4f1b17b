import type { RunEvent } from '@/lib/protocol';
import type { Lesson } from '@/lib/lessons/lesson';
import { of, type MechanismSteps } from '@/lib/lessons/count-steps';

export const parallelToolCalls: Lesson = {
  slug: 'parallel-tool-calls',
  title: 'Parallel tool calls',
  mechanism: 'parallel-tool-calls',
  failure:
    'The model asks for five things to look at in one turn (list, three reads, a search), each of those calls takes 40 s (a slow network drive), and the run has 2 min 30 s.',
  config: {
    provider: { vendor: 'sim-openai' },
    preset: 'codesmith',
    policy: 'parallel-reads',
    seed: 4,
    recovery: { tools: { maxParallel: 4 } },
    budgets: { maxRunMs: 150_000 },
    faults: { rules: [], tools: [{ id: 'slow', tool: '*', kind: 'slow', delayMs: 40_000, times: 5 }] },
  },
  timeScale: 0.15,
  text: {
    happens:
      'Run one after another, the five calls cost the sum of their times, 3 min 20 s before the model can take its next step, though none of them waits for another’s answer. That is more than the run’s whole time budget.',
    does: 'Each tool declares whether it may run beside others (list_files, read_file and search only read). The tool step runs neighbouring such calls at once, at most 4 at a time (tools.maxParallel), and a call that may change the workspace always alone. The results go back in one message in call order, whatever order they finished in: every tool_result in one user message for Anthropic, one tool message per call for OpenAI. Each group is a tool_batch event saying how it ran and why.',
    costs:
      'On: the first turn’s five calls take 80 s (four at once, then the fifth), and the run finishes in 85.4 s. Off: the 2 min 30 s budget ends the run while the first turn’s calls are still running one after another, before the model has taken a second step. Running calls together is only safe where they are independent: a write beside a read could change what the read sees, so writes never run in a group.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'the reads run four at a time' },
    off: {
      reason: 'run_time_budget',
      complete: false,
      says: 'the calls run one after another and the time budget ends the run',
    },
  },
  criterion: {
    says: 'the run finishes inside its time budget instead of waiting on tools that could have run together',
    lines: { complete: 'high', durationMs: 'low' },
  },
  diverges: { turn: 1, on: 'tool_batch' },
};

/** What the mechanism did in a run, counted from its events (the lesson's report). */
export const steps = (log: readonly RunEvent[]): MechanismSteps => ({
  count: of(log, 'tool_batch').filter((b) => b.parallel).length,
  noun: ['group of calls run at once', 'groups of calls run at once'],
});

/** Its lesson, after the one it follows in teaching order. */
export const LESSON = { lesson: parallelToolCalls, steps, after: 'interrupted-tool-call' };
