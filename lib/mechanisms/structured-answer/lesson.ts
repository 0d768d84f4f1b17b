import type { EventOf, RunEvent } from '@/lib/protocol';
import { foldTotals } from '@/lib/protocol/run-totals';
import type { Lesson } from '@/lib/lessons/lesson';
import { of, type MechanismSteps } from '@/lib/lessons/count-steps';
import { DEFAULTS } from './defaults';

/** The schema the lesson's answer must match. */
export const ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string', description: 'What was wrong and what changed, in one sentence.' },
    files_changed: { type: 'integer', minimum: 1 },
    done: { type: 'boolean' },
  },
  required: ['summary', 'files_changed', 'done'],
  additionalProperties: false,
};

export const structuredAnswerLesson: Lesson = {
  slug: 'structured-answer',
  title: 'Answers that must match a schema',
  mechanism: 'structured-answer',
  failure:
    'The run must end with a JSON answer matching a schema (summary, files_changed, done). The model fixes the bug, then answers with files_changed as the string "1" and no summary at all.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 2,
    answer: { name: 'report', schema: ANSWER_SCHEMA },
    faults: { rules: [], tools: [], answers: [{ id: 'broken', kind: 'breaks_schema', times: 1 }] },
  },
  timeScale: 0.5,
  text: {
    happens:
      'Anthropic has no answer format of its own: the schema goes as a tool the model must call, and the API holds the call to valid JSON, not to the schema. Whatever reads the answer next (a parser, another service) gets a string where it wants a number and no summary: it fails there, far from the model that could fix it.',
    does: `Each answer is checked against the schema on a ladder: jsonrepair for broken JSON, then coercion where nothing is lost ("1" becomes 1). What the ladder cannot fix goes back to the model as a re-ask naming each validation error, at most ${DEFAULTS.answerReasks} times. Every step is a structured_answer event with its reason.`,
    costs:
      'On: coercion turns "1" into 1, the missing summary goes back to the model in one re-ask, and the second answer matches: the run ends at turn 10 having spent $0.020 (off: $0.018), one more turn for an answer that can be used. Off: the run ends at turn 9 with the answer as it came, its 2 validation errors named in the log, and the terminate says the answer does not match the schema.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'coercion fixes the number, the missing summary is asked for once, and the second answer matches',
    },
    off: {
      reason: 'invalid_answer',
      complete: false,
      says: 'the run ends with the answer as it came, and says it does not match the schema',
    },
  },
  criterion: {
    says: 'the run ends with an answer that matches the schema',
    lines: { complete: 'high' },
  },
  diverges: { turn: 9, on: 'structured_answer' },
  // Every claim its text makes, checked against the two runs it plays (the lessons tests pass their `expect`).
  claims: (lesson, { on, off }, expect) => {
    const turns = (log: RunEvent[]) => of(log, 'iteration_start').length;
    const [first, second] = of(on, 'structured_answer');
    expect(lesson.config.faults!.answers).toMatchObject([{ kind: 'breaks_schema', times: 1 }]);
    // The first answer: files_changed a string, summary missing; coercion fixes the one, not the other.
    expect(first!.ladder.find((r) => r.rung === 'coerce')!.detail).toBe('files_changed: "1" → 1');
    expect(lesson.text.costs).toContain('coercion turns "1" into 1');
    // The lesson sets no re-ask budget: the one the run used is the default, as its event says.
    expect(lesson.config.recovery?.tools?.answerReasks).toBeUndefined();
    expect(first).toMatchObject({ next: 'reask', reasks: 1 });
    expect(lesson.text.does).toContain(`at most ${first!.max_reasks} times`);
    expect(first!.errors).toEqual(['summary: Invalid input: expected string, received undefined']);
    expect(lesson.text.costs).toContain('the missing summary goes back to the model in one re-ask');
    expect(second).toMatchObject({ outcome: 'valid', next: 'accept' });
    expect(of(on, 'structured_answer')).toHaveLength(2);
    expect(lesson.text.costs).toContain(
      `the run ends at turn ${turns(on)} having spent ${usd3(foldTotals(on).usd)} (off: ${usd3(foldTotals(off).usd)})`,
    );
    expect(turns(on) - turns(off)).toBe(1);
    const [broken] = of(off, 'structured_answer');
    expect(broken).toMatchObject({ outcome: 'invalid', next: 'run_ends' });
    expect(broken!.ladder.map((r) => r.rung)).toEqual(['parse', 'schema']);
    expect(lesson.text.costs).toContain(
      `Off: the run ends at turn ${turns(off)} with the answer as it came, its ${broken!.errors.length} validation errors`,
    );
    expect(end(off).message).toMatch(/^the answer does not match the schema/);
    expect(lesson.text.happens).toContain('a tool the model must call');
  },
};

const end = (log: readonly RunEvent[]) => log.at(-1) as EventOf<'terminate'>;
/** 0.080135 → "$0.080". */
const usd3 = (x: number) => `$${x.toFixed(3)}`;

/** What the mechanism did in a run, counted from its events (the lesson's report). */
export const steps = (log: readonly RunEvent[]): MechanismSteps => ({
  count: of(log, 'structured_answer').filter((e) => e.outcome === 'repaired' || e.next === 'reask').length,
  noun: ['answer repaired or asked for again', 'answers repaired or asked for again'],
});

/** Its lesson, after the one it follows in teaching order. */
export const LESSON = { lesson: structuredAnswerLesson, steps, after: 'parallel-tool-calls' };
