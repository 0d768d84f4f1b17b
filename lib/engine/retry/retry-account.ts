import {
  policyOf,
  policyRetryRule,
  type AccountPolicy,
  type RecoveryConfig,
  type RetryErrorKind,
  type RetryRuleVerdict,
} from '@/lib/protocol';
import type { Classification } from '../recovery';

/** Which ledger a retry is booked on; each keeps its own budget. */
export type RetryAccountName = 'foreground' | 'background' | 'context';

/**
 * One retry account: how many retries it may spend, which failures it retries, and how long
 * it waits — all read from one account of the configuration's retry policy
 * (lib/protocol/retry-policy.ts). The foreground loop, background calls (titles, summaries) and
 * the context channel each get their own, so an auxiliary call never spends the main loop's budget.
 */
export interface RetryAccount {
  name: RetryAccountName;
  /** Retries one call may spend, of any kind; 0 when the account is switched off. */
  maxRetries: number;
  /** The policy's account: its rows, budgets, backoffs and Retry-After rules. */
  policy: AccountPolicy;
  /** The policy's retry rule on a failure (lib/protocol/retry-rules.ts): retried or not, by which row. */
  rule(verdict: Classification): RetryRuleVerdict;
}

/** What the retry rules read of a verdict: its category and why waiting cannot help, if the classifier found a reason. */
export function kindOf(verdict: Pick<Classification, 'category' | 'lasting'>): RetryErrorKind {
  return verdict.lasting
    ? { category: verdict.category, lasting: verdict.lasting }
    : { category: verdict.category };
}

function accountOf(name: 'foreground' | 'background', policy: AccountPolicy): RetryAccount {
  return {
    name,
    maxRetries: policy.enabled ? policy.maxRetries : 0,
    policy,
    rule: (verdict) => policyRetryRule(policy, name, kindOf(verdict), verdict.rule),
  };
}

/** The main loop's account: the conversation's account of the configuration's policy. */
export function foregroundAccount(recovery: RecoveryConfig): RetryAccount {
  return accountOf('foreground', policyOf(recovery).foreground);
}

/**
 * Auxiliary calls: a shorter account that retries only what is likely to pass soon
 * (a preset's: network, rate-limit, timeout), from the policy's background account.
 */
export function backgroundAccount(recovery: RecoveryConfig): RetryAccount {
  return accountOf('background', policyOf(recovery).background);
}
