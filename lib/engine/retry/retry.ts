import type { RetryDeclinedNext } from '@/lib/protocol';
import type { Classification } from '../recovery';
import type { EngineDeps } from '../engine-deps';
import { decideRetry, rowKey, type FailureHints } from './decide-retry';
import type { RetryAccount } from './retry-account';

/** One attempt's result, as the retry function needs it. */
export type AttemptOutcome<T> =
  | { ok: true; value: T }
  | ({ ok: false; verdict: Classification; rung?: 'silent_retry' | 'degrade' } & FailureHints);

export type RetryResult<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; verdict: Classification; attempts: number; why: string; exhausted: boolean };

export interface RetryOptions<T> extends EngineDeps {
  account: RetryAccount;
  /** Runs attempt n (1-based); records its own request and error events. */
  attempt: (n: number) => Promise<AttemptOutcome<T>>;
  iteration: number;
  /** Prefix for the retry reason on the timeline ("background title"). */
  label?: string;
  /**
   * What the caller does when the retry function gives up on a failure, and the words for it
   * ("the error surfaces and the run ends"): recorded in the `retry_declined` event, so the log
   * says what follows where the decision was made.
   */
  onDecline: (verdict: Classification) => { next: RetryDeclinedNext; then: string };
}

/**
 * The one retry loop for every model call (foreground, background, context): attempt,
 * classify (inside the attempt), decide on the call's own account, record the decision as a
 * `retry_scheduled` event and sleep on the run clock — or, when it gives up, record that as a
 * `retry_declined` event naming the rule and what the caller does next. Never throws for a failed attempt: the
 * caller decides what giving up means (surface, skip, trim).
 */
export async function retry<T>(options: RetryOptions<T>): Promise<RetryResult<T>> {
  const { account, clock, random, emit, signal, iteration } = options;
  // Retries this call spent on each policy row (the row's own budget counts them).
  const spent = new Map<string, number>();
  // Attempts after a move to another model (the context-window fallback): not retries, so not budgeted.
  let moves = 0;
  for (let attempt = 1; ; attempt++) {
    const outcome = await options.attempt(attempt);
    if (outcome.ok) return { ok: true, value: outcome.value, attempts: attempt };
    if (signal.aborted) throw signal.reason;
    const key = rowKey(outcome.verdict);
    const decision = decideRetry({
      account,
      attempt: attempt - moves,
      verdict: outcome.verdict,
      hints: outcome,
      random,
      rowSpent: spent.get(key) ?? 0,
    });
    if (!decision.retry) {
      const follow = options.onDecline(outcome.verdict);
      emit({
        event: 'retry_declined',
        iteration,
        attempt,
        account: account.name,
        category: outcome.verdict.category,
        rule: decision.rule,
        attempts: attempt,
        max_attempts: account.maxRetries + 1,
        next: follow.next,
        why: `${options.label ? `${options.label}: ` : ''}no retry — ${decision.why}; ${follow.then}.`,
        ...(decision.row ? { policy_row: decision.row } : {}),
      });
      return {
        ok: false,
        verdict: outcome.verdict,
        attempts: attempt,
        why: decision.why,
        exhausted: decision.exhausted,
      };
    }
    emit({
      event: 'retry_scheduled',
      iteration,
      attempt,
      next_attempt: attempt + 1,
      max_attempts: account.maxRetries + 1,
      category: outcome.verdict.category,
      rung: outcome.rung ?? 'silent_retry',
      computed_delay_ms: Math.round(decision.computedMs),
      ...(decision.retryAfterMs !== undefined ? { retry_after_ms: decision.retryAfterMs } : {}),
      wait_ms: Math.round(decision.waitMs),
      reason: options.label ? `${options.label}: ${decision.reason}` : decision.reason,
      account: account.name,
      ...(decision.backoff ? { backoff: decision.backoff } : {}),
      ...(decision.fixed ? { backoff_mode: 'fixed' as const } : {}),
      ...(decision.row ? { policy_row: decision.row } : {}),
    });
    if (outcome.move) moves += 1;
    else spent.set(key, (spent.get(key) ?? 0) + 1);
    await clock.sleep(decision.waitMs, signal);
  }
}
