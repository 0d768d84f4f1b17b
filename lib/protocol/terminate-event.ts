import type { EventBody, EventOf, TerminateReason } from './events';
import type { RunStatus } from './http/runs';
import type { RunTotals } from './run-totals';

/**
 * The one way a terminate event is written, whoever closes the log: the loop itself, the
 * runtime or the registry when the engine failed, the store after a restart, an importer.
 * Its totals come from the one fold (run-totals.ts) or the engine's own accounting.
 */
export function terminateEvent(options: {
  reason: TerminateReason;
  complete: boolean;
  totals: Readonly<Pick<RunTotals, 'inputTokens' | 'outputTokens' | 'usd'>>;
  message?: string | undefined;
  iteration?: number | undefined;
}): EventBody<EventOf<'terminate'>> {
  const { reason, complete, totals, message, iteration } = options;
  return {
    event: 'terminate',
    ...(iteration !== undefined ? { iteration } : {}),
    reason,
    complete,
    ...(message ? { message } : {}),
    usd_so_far: totals.usd,
    input_tokens: totals.inputTokens,
    output_tokens: totals.outputTokens,
  };
}

/**
 * How a run ended, as the runs list, the run header and comparisons say it. An import that
 * ended without a terminate line ('imported') ended without saying why: not a failure we saw.
 */
export function runOutcome(end: {
  reason: TerminateReason;
  complete: boolean;
}): Exclude<RunStatus, 'running'> {
  if (end.complete) return 'completed';
  if (end.reason === 'aborted' || end.reason === 'abandoned') return 'aborted';
  if (end.reason === 'imported') return 'completed';
  return 'failed';
}
