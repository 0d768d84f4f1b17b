import type { Random } from '@/lib/clock';
import { formatMs, type RetryDeclinedRule } from '@/lib/protocol';
import { computeBackoff, decideWait, type Classification } from '../recovery';
import { backoffFormula, type BackoffFormula } from './backoff-formula';
import type { RetryAccount } from './retry-account';

/** What the retry function does after a failed attempt. */
export type RetryDecision =
  | { retry: false; rule: RetryDeclinedRule; why: string; exhausted: boolean }
  | {
      retry: true;
      computedMs: number;
      waitMs: number;
      retryAfterMs?: number;
      reason: string;
      backoff?: BackoffFormula;
      fixed?: true;
    };

/** How a failed attempt asks to be treated beyond its classification. */
export interface FailureHints {
  /** Retry at once, without backoff (an Empty watchdog firing: nothing arrived, nothing billed); says why. */
  immediate?: string;
  /** Give up whatever the budget says (e.g. the stream error cap), with the reason. */
  stop?: string;
}

/**
 * The pure core of retry: given the account, the attempt that just failed (1-based) and the
 * classifier's verdict, decide whether to retry and how long to wait. The backoff exponent is
 * the number of retries already spent; the one random draw is the jitter.
 */
export function decideRetry(options: {
  account: RetryAccount;
  attempt: number;
  verdict: Classification;
  hints?: FailureHints;
  random: Random;
}): RetryDecision {
  const { account, attempt, verdict, hints = {}, random } = options;
  if (hints.stop) return { retry: false, rule: 'stream_error_cap', why: hints.stop, exhausted: true };
  const rule = account.rule(verdict);
  if (!rule.retried && !hints.immediate)
    return { retry: false, rule: rule.declined, why: rule.why, exhausted: false };
  if (attempt > account.maxRetries) {
    const budget = `${account.name === 'foreground' ? 'retry' : `${account.name} retry`} budget`;
    const why =
      account.maxRetries === 0
        ? `the ${budget} allows no retries`
        : `${budget} of ${account.maxRetries} spent`;
    return { retry: false, rule: 'budget_spent', why, exhausted: true };
  }
  if (hints.immediate) return { retry: true, computedMs: 0, waitMs: 0, reason: hints.immediate };
  const despite =
    rule.retried && rule.despiteClassifier
      ? `; retried although the classifier calls it final (${verdict.rule}): ${rule.despiteClassifier}`
      : '';
  if (account.fixedDelayMs !== undefined) return fixedWait(account.fixedDelayMs, verdict, despite);
  const backoff = computeBackoff({ attempt: attempt - 1, config: account.backoff, random });
  const wait = decideWait({
    computedMs: backoff.jitteredMs,
    retryAfterMs: verdict.retryAfterMs,
    config: account.wait,
  });
  return {
    retry: true,
    computedMs: backoff.jitteredMs,
    waitMs: wait.waitMs,
    ...(verdict.retryAfterMs !== undefined ? { retryAfterMs: verdict.retryAfterMs } : {}),
    // A rule that retries what the classifier calls final (CodeSmith's exclusion, or every error) says so.
    reason: `${wait.reason}${despite}`,
    backoff: backoffFormula(account, backoff),
  };
}

/**
 * CodeSmith's engine layer: no backoff. A rate limit sleeps the fixed delay (Retry-After is a
 * string by the time it reaches that layer, so it is not read); anything else goes again at once.
 */
function fixedWait(delayMs: number, verdict: Classification, despite: string): RetryDecision {
  if (verdict.category !== 'rate_limit') {
    return {
      retry: true,
      computedMs: 0,
      waitMs: 0,
      fixed: true,
      reason: `fixed mode: no wait for ${verdict.category} (the engine layer sleeps only on rate limits, and never backs off)${despite}`,
    };
  }
  const ignored =
    verdict.retryAfterMs !== undefined ? `; Retry-After ${formatMs(verdict.retryAfterMs)} not read` : '';
  return {
    retry: true,
    fixed: true,
    computedMs: delayMs,
    waitMs: delayMs,
    ...(verdict.retryAfterMs !== undefined ? { retryAfterMs: verdict.retryAfterMs } : {}),
    reason: `fixed mode: a rate limit sleeps a fixed ${formatMs(delayMs)}${ignored}${despite}`,
  };
}
