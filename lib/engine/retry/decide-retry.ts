import type { Random } from '@/lib/clock';
import {
  categoryLabel,
  formatMs,
  policyKind,
  rowTerms,
  type PolicyBackoff,
  type PolicyRowField,
  type RetryDeclinedRule,
} from '@/lib/protocol';
import { computeBackoff, decideWait, type Classification } from '../recovery';
import { backoffFormula, type BackoffFormula } from './backoff-formula';
import { kindOf, type RetryAccount } from './retry-account';

/** What the retry function does after a failed attempt, with the policy row that decided it. */
export type RetryDecision =
  | { retry: false; rule: RetryDeclinedRule; why: string; exhausted: boolean; row?: PolicyRowField }
  | {
      retry: true;
      computedMs: number;
      waitMs: number;
      retryAfterMs?: number;
      reason: string;
      backoff?: BackoffFormula;
      fixed?: true;
      row?: PolicyRowField;
    };

/** How a failed attempt asks to be treated beyond its classification. */
export interface FailureHints {
  /** Retry at once, without backoff (an Empty watchdog firing: nothing arrived, nothing billed); says why. */
  immediate?: string;
  /** Give up whatever the budget says (e.g. the stream error cap), with the reason. */
  stop?: string;
  /**
   * The call moved to another model for a reason that is not a retry (the policy's
   * context-window fallback): it goes again at once and spends no retry budget; says why.
   */
  move?: string;
}

/** The ledger key of a verdict: its policy row, or the category that has none (a context overflow). */
export function rowKey(verdict: Pick<Classification, 'category' | 'lasting'>): string {
  return policyKind(kindOf(verdict)) ?? verdict.category;
}

/**
 * The pure core of retry: given the account, the attempt that just failed (1-based), the
 * classifier's verdict and the retries this call already spent on the verdict's row, decide
 * whether to retry and how long to wait — all from the account's policy row for the kind of
 * error (its action, its budget, its backoff and Retry-After rule, else the account's). The
 * backoff exponent is the number of retries already spent on the call; the one random draw is the jitter.
 */
export function decideRetry(options: {
  account: RetryAccount;
  attempt: number;
  verdict: Classification;
  hints?: FailureHints;
  random: Random;
  /** Retries this call already spent on the verdict's row (0 when absent). */
  rowSpent?: number;
}): RetryDecision {
  const { account, attempt, verdict, hints = {}, random, rowSpent = 0 } = options;
  const kind = policyKind(kindOf(verdict));
  const terms = kind ? rowTerms(account.policy, kind) : undefined;
  const budget = account.maxRetries === 0 ? 0 : (terms?.budget ?? account.maxRetries);
  const row = (used: number, source: PolicyRowField['backoff_source']): PolicyRowField => ({
    row: rowKey(verdict),
    rule: account.policy.rule,
    budget,
    used,
    left: Math.max(0, budget - used),
    backoff_source: source,
  });
  if (hints.stop)
    return {
      retry: false,
      rule: 'stream_error_cap',
      why: hints.stop,
      exhausted: true,
      row: row(rowSpent, 'none'),
    };
  if (hints.move)
    return { retry: true, computedMs: 0, waitMs: 0, reason: hints.move, row: row(rowSpent, 'immediate') };
  const rule = account.rule(verdict);
  if (!rule.retried && !hints.immediate)
    return { retry: false, rule: rule.declined, why: rule.why, exhausted: false, row: row(rowSpent, 'none') };
  if (attempt > account.maxRetries) {
    const budgetName = `${account.name === 'foreground' ? 'retry' : `${account.name} retry`} budget`;
    const why =
      account.maxRetries === 0
        ? `the ${budgetName} allows no retries`
        : `${budgetName} of ${account.maxRetries} spent`;
    return { retry: false, rule: 'budget_spent', why, exhausted: true, row: row(rowSpent, 'none') };
  }
  if (rowSpent >= budget) {
    // The row's own budget, smaller than the call's: this kind has had its retries.
    const what = kind === 'spent_quota' ? 'a spent quota' : categoryLabel(verdict.category);
    const why =
      budget === 0
        ? `the retry budget for ${what} allows no retries`
        : `retry budget of ${budget} for ${what} spent`;
    return { retry: false, rule: 'budget_spent', why, exhausted: true, row: row(rowSpent, 'none') };
  }
  if (hints.immediate)
    return {
      retry: true,
      computedMs: 0,
      waitMs: 0,
      reason: hints.immediate,
      row: row(rowSpent + 1, 'immediate'),
    };
  const despite =
    rule.retried && rule.despiteClassifier
      ? `; retried although the classifier calls it final (${verdict.rule}): ${rule.despiteClassifier}`
      : '';
  const backoffRule: PolicyBackoff = terms?.backoff ?? account.policy.backoff;
  const source = terms?.backoffSource ?? 'account';
  if (backoffRule.kind === 'fixed')
    return { ...fixedWait(backoffRule, verdict, despite), row: row(rowSpent + 1, source) };
  const settings = {
    baseDelayMs: backoffRule.baseMs,
    maxDelayMs: backoffRule.capMs,
    jitterMode: backoffRule.jitter,
    jitterRatio: backoffRule.jitterRatio,
  };
  const backoff = computeBackoff({ attempt: attempt - 1, config: settings, random });
  const retryAfter = terms?.retryAfter ?? account.policy.retryAfter;
  const wait = decideWait({
    computedMs: backoff.jitteredMs,
    retryAfterMs: verdict.retryAfterMs,
    config: { honorRetryAfter: retryAfter.honour, retryAfterCapMs: retryAfter.capMs },
  });
  return {
    retry: true,
    computedMs: backoff.jitteredMs,
    waitMs: wait.waitMs,
    ...(verdict.retryAfterMs !== undefined ? { retryAfterMs: verdict.retryAfterMs } : {}),
    // A rule that retries what the classifier calls final (CodeSmith's exclusion, or every error) says so.
    reason: `${wait.reason}${despite}`,
    backoff: backoffFormula(settings, backoff),
    row: row(rowSpent + 1, wait.honoured ? 'retry_after' : source),
  };
}

/**
 * A fixed wait (CodeSmith's engine layer, in its preset's policy: a rate limit sleeps 2 s,
 * anything else goes again at once). Retry-After is not read: it is a string by the time it
 * reaches that layer.
 */
function fixedWait(
  backoff: Extract<PolicyBackoff, { kind: 'fixed' }>,
  verdict: Classification,
  despite: string,
): Extract<RetryDecision, { retry: true }> {
  const note = backoff.note ? ` (${backoff.note})` : '';
  if (backoff.ms === 0) {
    return {
      retry: true,
      computedMs: 0,
      waitMs: 0,
      fixed: true,
      reason: `fixed mode: no wait for ${verdict.category}${note}${despite}`,
    };
  }
  const ignored =
    verdict.retryAfterMs !== undefined ? `; Retry-After ${formatMs(verdict.retryAfterMs)} not read` : '';
  const what =
    verdict.category === 'rate_limit' ? 'a rate limit' : `a ${categoryLabel(verdict.category)} error`;
  return {
    retry: true,
    fixed: true,
    computedMs: backoff.ms,
    waitMs: backoff.ms,
    ...(verdict.retryAfterMs !== undefined ? { retryAfterMs: verdict.retryAfterMs } : {}),
    reason: `fixed mode: ${what} sleeps a fixed ${formatMs(backoff.ms)}${ignored}${note}${despite}`,
  };
}
