import type { ErrorCategory, RecoveryConfig, RetryDeclinedRule } from '@/lib/protocol';
import { isBackgroundRetryable, type Classification } from '../recovery';

type RetryConfig = RecoveryConfig['retry'];

/** Which ledger a retry is booked on; each keeps its own budget. */
export type RetryAccountName = 'foreground' | 'background' | 'context';

/**
 * One retry account: how many retries it may spend, which failures it retries, and how long
 * it waits. The foreground loop, background calls (titles, summaries) and the context
 * channel each get their own, so an auxiliary call never spends the main loop's budget.
 */
export interface RetryAccount {
  name: RetryAccountName;
  /** Retries after the first attempt; 0 when the account is switched off. */
  maxRetries: number;
  /** Why this account will not retry a failure (the rule and the words), or undefined when it will. */
  refuses(verdict: Classification): Refusal | undefined;
  backoff: Pick<RetryConfig, 'baseDelayMs' | 'maxDelayMs' | 'jitterMode' | 'jitterRatio'>;
  wait: Pick<RetryConfig, 'honorRetryAfter' | 'retryAfterCapMs'>;
  /** CodeSmith's engine layer instead of backoff: a rate limit sleeps this long, anything else is retried at once. */
  fixedDelayMs?: number;
}

/** A refusal to retry: which rule decided, in words. */
export interface Refusal {
  rule: Extract<RetryDeclinedRule, 'retry_off' | 'not_retryable' | 'category_not_retried'>;
  why: string;
}

/** s11's with_retry catches only RateLimitError (429) and OverloadedError (529). */
const RATE_LIMIT_OVERLOADED: ReadonlySet<ErrorCategory> = new Set(['rate_limit', 'overloaded']);

/** The main loop's account: the preset's retry ladder. */
export function foregroundAccount(recovery: RecoveryConfig): RetryAccount {
  const { retry } = recovery;
  return {
    name: 'foreground',
    maxRetries: retry.enabled ? retry.maxRetries : 0,
    refuses: (verdict) => {
      if (!retry.enabled) return { rule: 'retry_off', why: 'retry is off in this configuration' };
      if (!verdict.retryable && !(retry.retryOn === 'everything' && verdict.category !== 'context_length'))
        return { rule: 'not_retryable', why: `not retryable (classifier rule ${verdict.rule}): the same request would fail the same way` };
      if (retry.retryOn === 'rate_limit_overloaded' && !RATE_LIMIT_OVERLOADED.has(verdict.category)) {
        return { rule: 'category_not_retried', why: `${verdict.category} is not retried by this configuration (only rate limits and overloads are)` };
      }
      return undefined;
    },
    backoff: retry,
    wait: retry,
    ...(retry.backoff === 'fixed' ? { fixedDelayMs: retry.fixedDelayMs } : {}),
  };
}

/**
 * Auxiliary calls: a shorter account that retries only what is likely to pass soon
 * (network, rate-limit, timeout); it shares the foreground's jitter and Retry-After rules.
 */
export function backgroundAccount(recovery: RecoveryConfig): RetryAccount {
  const { background, retry } = recovery;
  return {
    name: 'background',
    maxRetries: background.enabled ? background.maxRetries : 0,
    refuses: (verdict) => {
      if (!background.enabled) return { rule: 'retry_off', why: 'background retry is off in this configuration' };
      if (!verdict.retryable)
        return { rule: 'not_retryable', why: `not retryable (classifier rule ${verdict.rule}): the same request would fail the same way` };
      if (!isBackgroundRetryable(verdict.category))
        return {
          rule: 'category_not_retried',
          why: `${verdict.category} is not retried for background calls (only network, rate-limit and timeout errors are)`,
        };
      return undefined;
    },
    backoff: { ...retry, baseDelayMs: background.baseDelayMs },
    wait: retry,
  };
}
