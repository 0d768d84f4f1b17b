import type { EventOf, TerminateReason } from '@/lib/protocol';
import { MODULE_TERMINATES } from '@/lib/mechanisms/modules/about';
import { runOutcome } from '@/lib/protocol/terminate-event';
import { errorCause, formatMs } from '../format';
import type { ErrorView, RunStatus } from '../run-view-state';

/** Plain-language reasons for the run header ("waiting 4.1 s: 529 overloaded, then attempt 3 of 4"). */

const TERMINATE_TEXT: Record<TerminateReason, string> = {
  end_turn: 'the model ended its turn (whether the task is done is the verdict)',
  max_iterations: 'stopped: iteration budget reached',
  cost_budget: 'stopped: cost budget reached',
  aborted: 'aborted on request',
  abandoned: 'abandoned: nobody was watching',
  model_error: 'failed: the model call could not be recovered',
  retries_exhausted: 'failed: retry budget exhausted',
  tool_halt: 'halted: too many consecutive tool failures',
  refusal: 'stopped: the model refused',
  max_tokens: 'stopped at the output cap',
  internal_error: 'failed: internal error in the loop',
  imported: 'imported trace',
  context_overflow: 'failed: still over the context window after the overflow budget',
  run_time_budget: 'stopped: run time budget reached',
  attempt_budget: 'stopped: attempt budget reached',
  deadlock: 'stopped: nothing could ever wake the run',
  server_restart: 'cut off: the server stopped mid-run',
  partial_response: 'stopped: the stream was cut after content arrived (presented, not retried)',
  host_overloaded:
    'stopped: the machine was too busy to finish a check (not the model: run it again on a quieter machine)',
  ...MODULE_TERMINATES,
};

export function terminateStatus(event: EventOf<'terminate'>): RunStatus {
  const outcome = runOutcome(event);
  return outcome === 'completed' ? 'done' : outcome;
}

/**
 * Reasons whose engine message only restates the reason ("aborted by request", "nobody was
 * watching the run", "the partial response is presented"): the header says it once. The
 * message stays in the event JSON one click away.
 */
const MESSAGE_RESTATES: ReadonlySet<TerminateReason> = new Set(['aborted', 'abandoned', 'partial_response']);

export function terminateText(event: EventOf<'terminate'>): string {
  const base = TERMINATE_TEXT[event.reason];
  return event.message && !MESSAGE_RESTATES.has(event.reason) ? `${base} — ${event.message}` : base;
}

/** How a waiting reason begins ("waiting 7.0 s:"), for the header to count the wait down live. */
export const WAITING_LEAD = /^waiting [^:]*:/;

export function waitingReason(event: EventOf<'retry_scheduled'>, error: ErrorView | undefined): string {
  const cause = errorCause(error, event.category);
  // Counted the way the cards count: attempts, the first request included.
  const of = Math.max(event.next_attempt, event.max_attempts);
  const asked = event.retry_after_ms !== undefined ? `, server asked ${formatMs(event.retry_after_ms)}` : '';
  const rung = event.rung === 'silent_retry' ? '' : ` [${event.rung}]`;
  const who = event.account === 'background' ? 'background call: ' : '';
  return `waiting ${formatMs(event.wait_ms)}: ${who}${cause}, then attempt ${event.next_attempt} of ${of}${asked}${rung}`;
}

/** What the watchdog decided (Empty or Partial); what the call does next is the retry decision's own event. */
export function watchdogReason(event: EventOf<'watchdog_fired'>): string {
  const what = event.outcome === 'empty' ? 'Empty: no content had arrived' : 'Partial: content had arrived';
  return `watchdog fired: no stream event for ${formatMs(event.window_ms)} (${what})`;
}

/**
 * What the classifier decided about a failed attempt. Whether it is retried is not known
 * here: the retry function's `retry_scheduled` or `retry_declined` that follows says so.
 */
export function errorReason(event: EventOf<'model_error'>): string {
  const cause = errorCause({ status: event.status, category: event.category });
  return `${cause} on attempt ${event.attempt}${event.retryable ? '' : ' (not retryable)'}`;
}
