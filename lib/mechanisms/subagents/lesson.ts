import type { EventOf, RunEvent } from '@/lib/protocol';
import type { Lesson } from '@/lib/lessons/lesson';
import { of, type MechanismSteps } from '@/lib/lessons/count-steps';

/** The run's own attempt budget in the lesson: fewer than the tree makes under the rate limit. */
const RUN_ATTEMPTS = 20;

export const subagentsLesson: Lesson = {
  slug: 'subagents',
  title: 'Sub-agents and their retry accounts',
  mechanism: 'subagents',
  failure:
    'The model hands three survey tasks to three sub-agents at once, and all three hit the same rate limit: the vendor answers 429 to the nine requests after the first. The run may make 20 model requests.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 3,
    recovery: { tools: { delegate: true } },
    budgets: { maxAttempts: RUN_ATTEMPTS },
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
  text: {
    happens:
      'Each sub-agent retries its 429s on its own, as its retry ladder says: three of them on one limit make three times the retries (retry amplification across a tree). When every request in the tree counts in the run’s one attempt budget, the children’s retries spend the parent’s: the parent has nothing left for its own work.',
    does: 'A sub-agent is a child loop with its own task, turn budget and attempt account: its retries are its own to spend, and the parent’s budget is the parent’s. Every child event goes into the run’s one log inside a subagent_event naming the child and the delegate call; a subagent_end says how the child ended and what the parent does about it (accept its answer, run it again on the run’s model or with a fresh seed, or give up), with its reason.',
    costs:
      'On: the three children make 18 requests between them (6 each, 3 of them retries), the parent makes 11 of its own, and the run ends its turn at turn 10 with the test passing: 29 requests tree-wide, more than the run alone may make. Off (the children share the run’s account): the children’s 18 requests leave the parent 2, and the run stops at turn 3 on its attempt budget with the work not done. A separate account is a choice to pay for: each child’s budget is spent on top of the run’s, so the tree can cost more than the run’s own limit says.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'the children retry on their own accounts; the parent does its work',
    },
    off: {
      reason: 'attempt_budget',
      complete: false,
      says: 'the children’s retries spend the run’s attempt budget before the parent does its work',
    },
  },
  criterion: { says: 'the run ends with its work done', lines: { complete: 'high' } },
  diverges: { turn: 1, on: 'subagent_start' },
  // Every claim its text makes, checked against the two runs it plays (the lessons tests pass their `expect`).
  claims: (lesson, { on, off }, expect) => {
    const ends = (log: RunEvent[]) => of(log, 'subagent_end');
    const end = (log: RunEvent[]) => log.at(-1) as EventOf<'terminate'>;
    const own = (log: RunEvent[]) => of(log, 'model_request').length;
    expect(lesson.config.budgets?.maxAttempts).toBe(RUN_ATTEMPTS);
    expect(lesson.failure).toContain(`The run may make ${RUN_ATTEMPTS} model requests`);
    const rule = lesson.config.faults!.rules![0]!;
    expect(rule.when).toMatchObject({ kind: 'requests' });
    expect(lesson.failure).toContain(`the nine requests after the first`);
    expect((rule.when as { numbers: number[] }).numbers).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const log of [on, off]) {
      expect(of(log, 'subagent_start')).toHaveLength(3);
      expect(ends(log).map((e) => e.requests)).toEqual([6, 6, 6]);
      expect(ends(log).at(-1)!.children_requests).toBe(18);
    }
    // 3 retries each: 3 failed attempts before the one that got through, per child.
    const retries = of(on, 'subagent_event').filter((e) => e.inner.event === 'retry_scheduled');
    expect(retries).toHaveLength(9);
    expect(lesson.text.costs).toContain(
      `the parent makes ${own(on)} of its own, and the run ends its turn at turn ${end(on).iteration} with the test passing: ${own(on) + 18} requests tree-wide`,
    );
    expect(own(on) + 18 > RUN_ATTEMPTS).toBe(true);
    expect(of(on, 'task_verdict')).toMatchObject([{ verdict: 'done' }]);
    expect(of(off, 'subagent_start').every((s) => s.shares_attempts)).toBe(true);
    expect(own(off)).toBe(RUN_ATTEMPTS - 18);
    expect(lesson.text.costs).toContain(
      `leave the parent ${own(off)}, and the run stops at turn ${end(off).iteration} on its attempt budget with the work not done`,
    );
    expect(of(off, 'task_verdict')).toMatchObject([{ verdict: 'not_done' }]);
  },
};

/** What the mechanism did in a run, counted from its events (the lesson's report). */
export const steps = (log: readonly RunEvent[]): MechanismSteps => ({
  count: of(log, 'subagent_start').filter((s) => !s.shares_attempts).length,
  noun: ['sub-agent on an attempt account of its own', 'sub-agents on attempt accounts of their own'],
});

/** Its lesson, after the one it follows in teaching order. */
export const LESSON = { lesson: subagentsLesson, steps, after: 'structured-answer' };
