import type { RunEvent } from '@/lib/protocol';
import type { RunnableCell } from './cells';
import { POINTS } from './injection-points';
import type { Ending, Path } from './promise-rules';
import type { GuardedRun } from './run-guarded';

/** What a cell's log shows: how the run ended and which path carried it past the fault. */
export interface Observed {
  ending: Ending | string;
  path: Path;
}

export interface CellVerdict {
  observed: Observed;
  passed: boolean;
  hung: boolean;
  /** Every way the run broke its promise or an invariant, in words. */
  failures: string[];
}

/** The rule id every matrix fault is injected under. */
export const MATRIX_RULE_ID = 'matrix';

const ERROR_ACTIONS: ReadonlySet<string> = new Set(['http_error', 'proxy_error', 'connection']);
const BUDGET_ENDINGS: ReadonlySet<string> = new Set([
  'run_time_budget',
  'attempt_budget',
  'max_iterations',
  'cost_budget',
]);

/** Reads a cell's outcome from its log alone. */
export function observe(events: readonly RunEvent[]): Observed {
  const last = events.at(-1);
  const ending =
    last?.event !== 'terminate'
      ? 'no terminate'
      : last.reason === 'end_turn' && last.complete
        ? 'completes'
        : last.reason;
  const has = (test: (e: RunEvent) => boolean): boolean => events.some(test);
  let path: Path;
  if (has((e) => e.event === 'llm_call' && e.partial === true)) path = 'partial_kept';
  else if (has((e) => e.event === 'watchdog_fired' && e.outcome === 'empty')) path = 'watchdog_empty';
  else if (has((e) => e.event === 'retry_scheduled')) path = 'loop_retry';
  else if (has((e) => e.event === 'model_error')) path = 'surfaced';
  // No error and no mechanism: the run waited until a budget ended it.
  else if (last?.event === 'terminate' && BUDGET_ENDINGS.has(last.reason)) path = 'waited_out';
  // An HTTP-level fault struck and the loop never saw an error: the SDK retried beneath it.
  else if (has((e) => e.event === 'fault_injected' && ERROR_ACTIONS.has(e.action))) path = 'sdk_retry';
  else path = 'untouched';
  return { ending, path };
}

/**
 * Checks one cell's run: its promise (ending and path), that the fault struck where the cell
 * says, and the log's invariants (seq contiguous from 0, exactly one terminate, last).
 */
export function checkCell(cell: RunnableCell, run: GuardedRun): CellVerdict {
  const { events } = run;
  const failures: string[] = [];
  if (run.hung) failures.push('hang: the run did not end within its wall-time guard');

  events.forEach((e, i) => {
    if (e.seq !== i) failures.push(`seq ${e.seq} at position ${i}: not contiguous from 0`);
  });
  const terminates = events.filter((e) => e.event === 'terminate').length;
  if (terminates !== 1) failures.push(`${terminates} terminate events (exactly one expected)`);
  if (events.at(-1)?.event !== 'terminate')
    failures.push(`the log ends with ${events.at(-1)?.event ?? 'nothing'}, not terminate`);

  const observed = observe(events);
  const { promise } = cell;
  if (observed.ending !== promise.ending)
    failures.push(`ended ${observed.ending}, promised ${promise.ending}`);
  if (observed.path !== promise.path) failures.push(`path ${observed.path}, promised ${promise.path}`);
  const last = events.at(-1);
  // A run the budget ended must say why, in words that teach what happened.
  if (
    promise.ending === 'run_time_budget' &&
    last?.event === 'terminate' &&
    !/watchdog/.test(last.message ?? '')
  ) {
    failures.push(`the terminate message does not say the watchdog was off: "${last.message ?? ''}"`);
  }

  const injected = events.findIndex((e) => e.event === 'fault_injected' && e.rule_id === MATRIX_RULE_ID);
  if (injected < 0) failures.push(`the fault never struck (request ${cell.requestNo})`);
  else failures.push(...checkPoint(cell, events.slice(injected + 1)));

  return { observed, passed: failures.length === 0, hung: run.hung, failures };
}

/** The faulted attempt's stream, from the injection to its first failure or its result, matches the point. */
function checkPoint(cell: RunnableCell, after: readonly RunEvent[]): string[] {
  const { effect } = cell.fault;
  if (effect.kind === 'slow' || cell.promise.path === 'sdk_retry') return [];
  const end = after.findIndex(
    (e) => e.event === 'model_error' || e.event === 'watchdog_fired' || e.event === 'llm_call',
  );
  const attempt = end < 0 ? after : after.slice(0, end);
  const content = attempt.filter((e) => e.event === 'content_delta' && e.text.length > 0);
  const failures: string[] = [];
  const { contentArrived, needs } = POINTS[cell.point];
  if (cell.point === 'before_headers' && attempt.some((e) => e.event === 'stream_open')) {
    failures.push('a stream opened, but the fault was to strike before headers');
  }
  if (!contentArrived && content.length > 0)
    failures.push(`content arrived before a fault meant to strike ${POINTS[cell.point].label}`);
  if (contentArrived && content.length === 0)
    failures.push(`no content arrived before a fault meant to strike ${POINTS[cell.point].label}`);
  if (needs && !content.some((e) => e.event === 'content_delta' && e.kind === needs)) {
    failures.push(`no ${needs} arrived before a fault meant to strike ${POINTS[cell.point].label}`);
  }
  const error = after.find((e) => e.event === 'model_error');
  if (
    effect.kind === 'error' &&
    cell.promise.path !== 'partial_kept' &&
    error?.event === 'model_error' &&
    error.retryable !== effect.retryable
  ) {
    failures.push(
      `classified ${error.category} retryable=${error.retryable}, the fault is ${effect.retryable ? '' : 'not '}retryable`,
    );
  }
  if (
    effect.kind === 'error' &&
    effect.family !== 'other' &&
    error?.event === 'model_error' &&
    error.category !== effect.family
  ) {
    failures.push(`classified ${error.category}, the fault is ${effect.family}`);
  }
  return failures;
}
