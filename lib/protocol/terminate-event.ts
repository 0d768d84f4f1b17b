import type { EventBody, EventOf, RunEvent, TerminateReason } from './events';
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
 * The terminate that closes a log its run log can no longer close: a run thread that died or a
 * launch that threw (lib/run-threads), a run cut off by a server restart (lib/store), an
 * imported log that ended without one. It follows `last`, the log's last event (undefined for
 * an empty log): the next seq, at the same run time. Every other event's seq is the run log's
 * (lib/runtime/run-log.ts); nothing else numbers one.
 */
export function terminateAfter(
  last: Readonly<Pick<RunEvent, 'seq' | 'ts'>> | undefined,
  options: Parameters<typeof terminateEvent>[0] & { runId: string },
): EventOf<'terminate'> {
  const { runId, ...terminate } = options;
  return { run_id: runId, seq: (last?.seq ?? -1) + 1, ts: last?.ts ?? 0, ...terminateEvent(terminate) };
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
