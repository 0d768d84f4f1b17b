import type { EventOf, RunEvent } from '@/lib/protocol';
import type { CompareSide, Comparison } from '@/lib/protocol/http/compare';
import { alignTurns } from './align-turns';
import { configDiff } from './config-diff';
import { divergenceOfSteps } from './first-divergence';
import { runSteps } from './run-steps';
import { runTotals } from './run-totals';
import { totalsDiff } from './totals-diff';

export interface CompareInput {
  id: string;
  events: readonly RunEvent[];
}

/** A log that cannot be compared: it has no run_start to say what it ran. */
export class NotComparableError extends Error {}

/**
 * Two runs side by side from their logs alone: turns aligned, the first divergence, totals
 * (only for runs that ended) and the configs field by field. Call it again as a live side's
 * log grows: every part is recomputed from the events as they stand.
 */
export function compareRuns(a: CompareInput, b: CompareInput): Comparison {
  const startA = runStart(a);
  const startB = runStart(b);
  const stepsA = runSteps(a.events);
  const stepsB = runSteps(b.events);
  const divergence = divergenceOfSteps(stepsA, stepsB);
  return {
    a: side(a, startA),
    b: side(b, startB),
    turns: alignTurns({ a: a.events, b: b.events, divergence, stepsA, stepsB }),
    end: {
      a: stepsA.filter((s) => s.turn === null).map((s) => s.label),
      b: stepsB.filter((s) => s.turn === null).map((s) => s.label),
    },
    divergence,
    totals: totalsDiff(runTotals(a.events), runTotals(b.events)),
    config: configDiff(startA, startB),
  };
}

function runStart(input: CompareInput): EventOf<'run_start'> {
  const first = input.events[0];
  if (first?.event !== 'run_start') throw new NotComparableError(`Run "${input.id}" has no run_start event yet, so there is nothing to compare`);
  return first;
}

function side(input: CompareInput, start: EventOf<'run_start'>): CompareSide {
  const last = input.events.at(-1);
  const title = input.events.findLast((e) => e.event === 'run_title');
  const verdict = input.events.findLast((e) => e.event === 'task_verdict');
  return {
    id: input.id,
    title: title?.event === 'run_title' ? title.title : null,
    scenario: start.scenario.id,
    vendor: start.vendor,
    model: start.model,
    preset: start.config.preset,
    seed: start.config.seed,
    running: last?.event !== 'terminate',
    reason: last?.event === 'terminate' ? last.reason : null,
    verdict: verdict?.event === 'task_verdict' ? verdict.verdict : null,
    eventCount: input.events.length,
  };
}
