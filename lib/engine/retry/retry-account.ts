import {
  backgroundRetryRule,
  foregroundRetryRule,
  type RecoveryConfig,
  type RetryErrorKind,
  type RetryRuleVerdict,
} from '@/lib/protocol';
import type { Classification } from '../recovery';

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
  /** The configuration's retry rule on a failure (lib/protocol/retry-rules.ts): retried or not, by which rule. */
  rule(verdict: Classification): RetryRuleVerdict;
  backoff: Pick<RetryConfig, 'baseDelayMs' | 'maxDelayMs' | 'jitterMode' | 'jitterRatio'>;
  wait: Pick<RetryConfig, 'honorRetryAfter' | 'retryAfterCapMs'>;
  /** CodeSmith's engine layer instead of backoff: a rate limit sleeps this long, anything else is retried at once. */
  fixedDelayMs?: number;
}

/** What the retry rules read of a verdict: its category and why waiting cannot help, if the classifier found a reason. */
function kindOf(verdict: Classification): RetryErrorKind {
  return verdict.lasting
    ? { category: verdict.category, lasting: verdict.lasting }
    : { category: verdict.category };
}

/** The main loop's account: the preset's retry ladder, deciding by its retry rule (retry.retryOn). */
export function foregroundAccount(recovery: RecoveryConfig): RetryAccount {
  const { retry } = recovery;
  return {
    name: 'foreground',
    maxRetries: retry.enabled ? retry.maxRetries : 0,
    rule: (verdict) => foregroundRetryRule(recovery, kindOf(verdict), verdict.rule),
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
    rule: (verdict) => backgroundRetryRule(recovery, kindOf(verdict), verdict.rule),
    backoff: { ...retry, baseDelayMs: background.baseDelayMs },
    wait: retry,
  };
}
