import type { EventOf } from '@/lib/protocol';
import { errorReason, waitingReason, watchdogReason } from './explain/describe-run';
import type { AttemptView, RunViewState } from './run-view-state';
import { turnLabel, updateAttempt, updateTurn } from './turn-updates';

/**
 * The recovery folds of reduceRunEvent: a classified error closes its attempt, a retry wait
 * is drawn on it, the stream watchdog arms and fires, the fallback model takes over. Each
 * sets the header's status and its plain-language reason.
 */
export function foldModelError(s: RunViewState, e: EventOf<'model_error'>): RunViewState {
  return {
    ...s,
    turns: updateTurn(s, e.iteration, e.ts, (t) =>
      updateAttempt(t, e.attempt, (a) => ({
        ...a,
        endTs: a.endTs ?? e.ts,
        outcome: a.outcome === 'watchdog' ? 'watchdog' : 'error',
        error: {
          ts: e.ts,
          seq: e.seq,
          message: e.message,
          status: e.status,
          vendorType: e.vendor_type,
          category: e.category,
          rule: e.rule,
          retryable: e.retryable,
          partial: e.partial,
        },
      })),
    ),
    status: 'recovering',
    reason: `${turnLabel(e.iteration)}: ${errorReason(e)}`,
  };
}

/** The call stopped retrying (or kept its Partial): the engine's own words become the status reason. */
export function foldRetryDeclined(s: RunViewState, e: EventOf<'retry_declined'>): RunViewState {
  return {
    ...s,
    turns: updateTurn(s, e.iteration, e.ts, (t) =>
      updateAttempt(t, e.attempt, (a) => ({
        ...a,
        endTs: a.endTs ?? e.ts,
        declined: {
          ts: e.ts,
          seq: e.seq,
          rule: e.rule,
          next: e.next,
          maxAttempts: e.max_attempts,
          why: e.why,
        },
      })),
    ),
    reason: `${turnLabel(e.iteration)}: ${e.why.charAt(0).toLowerCase()}${e.why.slice(1)}`,
  };
}

export function foldRetryScheduled(s: RunViewState, e: EventOf<'retry_scheduled'>): RunViewState {
  let error: AttemptView['error'];
  const turns = updateTurn(s, e.iteration, e.ts, (t) =>
    updateAttempt(t, e.attempt, (a) => {
      error = a.error;
      return {
        ...a,
        endTs: a.endTs ?? e.ts,
        retry: {
          ts: e.ts,
          seq: e.seq,
          nextAttempt: e.next_attempt,
          maxAttempts: e.max_attempts,
          category: e.category,
          rung: e.rung,
          computedDelayMs: e.computed_delay_ms,
          retryAfterMs: e.retry_after_ms,
          waitMs: e.wait_ms,
          reason: e.reason,
          ...(e.backoff ? { formula: e.backoff.formula } : {}),
        },
      };
    }),
  );
  return { ...s, turns, status: 'waiting', reason: waitingReason(e, error) };
}

export function foldWatchdogArmed(s: RunViewState, e: EventOf<'watchdog_armed'>): RunViewState {
  return {
    ...s,
    turns: updateTurn(s, e.iteration, e.ts, (t) =>
      updateAttempt(t, e.attempt, (a) => ({
        ...a,
        watchdog: { windowMs: e.window_ms, armedTs: e.ts, lastResetTs: e.ts },
      })),
    ),
  };
}

export function foldWatchdogFired(s: RunViewState, e: EventOf<'watchdog_fired'>): RunViewState {
  return {
    ...s,
    turns: updateTurn(s, e.iteration, e.ts, (t) =>
      updateAttempt(t, e.attempt, (a) => ({
        ...a,
        endTs: e.ts,
        outcome: 'watchdog',
        watchdog: {
          windowMs: e.window_ms,
          armedTs: a.watchdog?.armedTs ?? e.ts - e.window_ms,
          lastResetTs: a.watchdog?.lastResetTs ?? e.ts - e.window_ms,
          fired: { ts: e.ts, seq: e.seq, outcome: e.outcome },
        },
      })),
    ),
    status: 'recovering',
    reason: `${turnLabel(e.iteration)}: ${watchdogReason(e)}`,
  };
}

export function foldFallback(s: RunViewState, e: EventOf<'fallback'>): RunViewState {
  return {
    ...s,
    model: e.to_model,
    turns: updateTurn(s, e.iteration, e.ts, (t) => ({
      ...t,
      fallbacks: [
        ...t.fallbacks,
        { ts: e.ts, seq: e.seq, fromModel: e.from_model, toModel: e.to_model, reason: e.reason },
      ],
    })),
    status: 'recovering',
    reason: `falling back ${e.from_model} → ${e.to_model}: ${e.reason}`,
  };
}
