import type { RunEvent } from '@/lib/protocol';
import type { Lesson } from '@/lib/lessons/lesson';
import { of, sum, type MechanismSteps } from '@/lib/lessons/count-steps';

export const interruptedToolCall: Lesson = {
  slug: 'interrupted-tool-call',
  title: 'Interrupted tool calls',
  mechanism: 'interrupted-repair',
  failure:
    'The first read_file runs, but the turn is cut before its result comes back (an interrupt or a crash between the call and its result); the loop goes on.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 3,
    faults: { rules: [], tools: [{ id: 'cut', tool: 'read_file', kind: 'interrupt', times: 1 }] },
  },
  timeScale: 0.5,
  text: {
    happens:
      'The conversation now holds a tool call with no result. The strict vendors refuse such a history outright: Anthropic answers 400 “tool_use ids were found without tool_result blocks immediately after”, OpenAI 400 “An assistant message with tool_calls must be followed by tool messages responding to each tool_call_id”. Resending does not help: every later request carries the same history.',
    does: 'Before the next request, each dangling call gets a synthetic error result saying it was interrupted and what it did is unknown, so every call is answered; the model decides whether to call it again. The decision is a dangling_calls event, on or off.',
    costs:
      'On: the dangling read is answered with a synthetic error; the model lists the files again, reads again and finishes in 11 turns. Off: the third request is refused with a 400, and so are the 3 resends CodeSmith’s exclusion rule makes of it (the same history each time, 7.6 s of backoff); the run ends after 3 turns with the task not done. The synthetic result says only that the call was cut: a call that changes something may have done so, and the model has to look before it repeats it.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'the dangling read gets a synthetic error result; the model reads again and finishes',
    },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: 'the next request carries the call unanswered: 400 on every resend, and the run ends',
    },
  },
  criterion: {
    says: 'the run goes on after a turn cut between a call and its result',
    lines: { complete: 'high' },
  },
  diverges: { turn: 2, on: 'dangling_calls' },
};

/** What the mechanism did in a run, counted from its events (the lesson's report). */
export const steps = (log: readonly RunEvent[]): MechanismSteps => ({
  count: sum(
    of(log, 'dangling_calls')
      .filter((d) => d.repaired)
      .map((d) => d.calls.length),
  ),
  noun: [
    'interrupted call answered with a synthetic error',
    'interrupted calls answered with synthetic errors',
  ],
});

/** Its lesson, after the one it follows in teaching order. */
export const LESSON = { lesson: interruptedToolCall, steps, after: 'arg-repair' };
