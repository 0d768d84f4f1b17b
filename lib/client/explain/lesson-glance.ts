import type { Lesson, LessonSide } from '@/lib/lessons';
import { MECHANISMS } from '@/lib/mechanisms/mechanisms';
import { mechanismSteps, type MechanismSteps } from '@/lib/lessons/mechanism-steps';
import type { EventOf, RunEvent } from '@/lib/protocol';
import { exactUsd } from '@/lib/protocol/run-totals';
import { countOf, formatMs, formatUsd, formatUsdApart } from '@/lib/run-view/format';

/** One side of a played lesson, read off its finished log. */
export interface SideGlance {
  finished: boolean;
  /** "finished: end turn, task done" / "did not finish: model error". */
  outcome: string;
  /** The mechanism's own steps: "2 retries, 3.0 s waited" or "none". */
  steps: string;
  durationMs: number;
  requests: number;
  usd: number;
}

/**
 * A lesson's report at a glance: what the mechanism did on each side, how each side ended, and
 * what that changed in run time, model requests and cost — numbers with their units, in the
 * same definitions as the totals table below it (run time and cost from the terminate event,
 * every model_request counted), so the two never disagree.
 */
export interface LessonGlance {
  sides: Record<LessonSide, SideGlance>;
  /** Sentences, most telling first: the mechanism's steps, the outcome, then time and cost. */
  differences: string[];
}

function stepsText(steps: MechanismSteps): string {
  if (steps.count === 0) return 'none';
  if (steps.parts && steps.parts.length > 0)
    return steps.parts.map((p) => countOf(p.count, p.noun[0], p.noun[1])).join(', ');
  const [one, many] = steps.noun;
  const waited = steps.waitedMs ? `, ${formatMs(steps.waitedMs)} waited` : '';
  return `${countOf(steps.count, one, many)}${waited}`;
}

function side(lesson: Lesson, log: readonly RunEvent[]): SideGlance {
  const end = log.at(-1) as EventOf<'terminate'>;
  const verdict = log.findLast((e): e is EventOf<'task_verdict'> => e.event === 'task_verdict');
  const reason = end.reason.replace(/_/g, ' ');
  const task = verdict ? `, task ${verdict.verdict.replace(/_/g, ' ')}` : '';
  return {
    finished: end.complete,
    outcome: `${end.complete ? 'finished' : 'did not finish'}: ${reason}${task}`,
    steps: stepsText(mechanismSteps(lesson.mechanism, log)),
    durationMs: end.ts,
    requests: log.filter((e) => e.event === 'model_request').length,
    usd: end.usd_so_far,
  };
}

/** "11.4 s longer" / "2.0 s shorter" / "the same" (`same`: how two values are equal, e.g. cost in exact units). */
function delta(
  on: number,
  off: number,
  format: (n: number) => string,
  more: string,
  less: string,
  same = (x: number, y: number) => x === y,
): string {
  if (same(on, off)) return 'the same on both sides';
  return `${format(Math.abs(on - off))} ${on > off ? more : less} with it on`;
}

/** Both logs must have ended (their last event is terminate). */
export function lessonGlance(
  lesson: Lesson,
  on: readonly RunEvent[],
  off: readonly RunEvent[],
): LessonGlance {
  const a = side(lesson, on);
  const b = side(lesson, off);
  const label = MECHANISMS[lesson.mechanism].label;
  const outcome =
    a.outcome === b.outcome
      ? `Both sides ${a.outcome.replace(': ', ' — ')}.`
      : `With it on the run ${a.outcome.replace(': ', ' — ')}; with it off it ${b.outcome.replace(': ', ' — ')}.`;
  const [usdOn, usdOff] = formatUsdApart(a.usd, b.usd);
  const neither = notDoneOnBoth(on, off);
  return {
    sides: { on: a, off: b },
    differences: [
      `${label}: ${a.steps} with it on; ${b.steps} with it off.`,
      outcome,
      ...(neither ? [neither] : []),
      `Run time ${formatMs(a.durationMs)} on, ${formatMs(b.durationMs)} off — ${delta(a.durationMs, b.durationMs, formatMs, 'longer', 'shorter')}.`,
      `Model requests ${a.requests} on, ${b.requests} off; cost ${usdOn} on, ${usdOff} off — ${delta(a.usd, b.usd, formatUsd, 'more', 'less', (x, y) => exactUsd(x) === exactUsd(y))}.`,
    ],
  };
}

/**
 * When neither side got the task done, why a side that ended well still says "task not done":
 * the verdict judges the final workspace, not the loop's ending or the answer's text. Read off
 * the on side's task_verdict (what it checked, how many hidden tests failed).
 */
function notDoneOnBoth(on: readonly RunEvent[], off: readonly RunEvent[]): string | undefined {
  const verdictOf = (log: readonly RunEvent[]) =>
    log.findLast((e): e is EventOf<'task_verdict'> => e.event === 'task_verdict');
  const a = verdictOf(on);
  const b = verdictOf(off);
  if (a?.verdict !== 'not_done' || b?.verdict !== 'not_done') return undefined;
  const hidden =
    a.hidden_tests !== undefined && a.hidden_failed !== undefined && a.hidden_failed.length > 0
      ? ` (${a.hidden_failed.length} of ${a.hidden_tests} hidden tests failed or did not run with it on)`
      : '';
  return `The task is not done on either side: the verdict runs ${a.check} on the final workspace${hidden}, whatever the loop’s ending or the answer’s text.`;
}
