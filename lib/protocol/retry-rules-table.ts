import type { ErrorCategory } from './events';
import type { RecoveryConfig } from './recovery';
import type { AccountPolicy, PolicyBackoff, RetryPolicy } from './retry-policy';
import { categoryLabel } from './category-label';
import { formatMs } from './format-duration';
import { policyOf } from './preset-policies';
import {
  ERROR_CATEGORIES,
  POLICY_KINDS,
  policyKind,
  policyRetryRule,
  type RetryErrorKind,
  type RetryRuleVerdict,
} from './retry-rules';

/**
 * A configuration's retry rules as a table, one row per kind of error, in words: rendered from
 * its policy (policyOf in lib/protocol/preset-policies.ts) by the functions the engine's retry
 * accounts decide with (lib/protocol/retry-rules.ts), so the table cannot say what the decision
 * does not do. Shown under the preset picker and on the classifier lesson.
 * Zod-free: the browser imports it by path.
 */

/** One row of a configuration's retry table: a kind of error and what each account does with it. */
export interface RetryTableRow {
  kind: RetryErrorKind;
  /** The kind in the UI's words ("rate limited", "spent quota (a 429 or 402 no wait fixes)"). */
  label: string;
  conversation: RetryRuleVerdict;
  background: RetryRuleVerdict;
  /** A retried row's own budget or backoff, in words, where it differs from its account's (absent: the account's). */
  terms?: { conversation?: string; background?: string };
}

export interface RetryRulesTable {
  /** The policy's name, when it has one (a configuration's own policy; a preset's has none). */
  policy?: string;
  rows: RetryTableRow[];
  /** The budget each account retries within, in words. */
  budgets: { conversation: string; background: string };
  /** Rules that act whatever the category (the fallback chain, the watchdog, the SDK beneath the loop, the context channel). */
  notes: string[];
}

/** The kinds a table lists: every category, and a spent quota beside the rate limit it is classified as. */
export function retryTableKinds(): RetryErrorKind[] {
  return ERROR_CATEGORIES.flatMap((category): RetryErrorKind[] =>
    category === 'rate_limit' ? [{ category }, { category, lasting: 'spent_quota' }] : [{ category }],
  );
}

function kindLabel(kind: RetryErrorKind): string {
  return kind.lasting === 'spent_quota'
    ? 'spent quota or billing limit (a 429 or 402 no wait fixes)'
    : categoryLabel(kind.category);
}

const retries = (n: number) => `${n} ${n === 1 ? 'retry' : 'retries'}`;

/** A backoff in words: "1 s × 2ⁿ up to 1 min ±10 %", "a fixed 2 s", "at once". */
export function backoffWords(backoff: PolicyBackoff): string {
  if (backoff.kind === 'fixed') return backoff.ms === 0 ? 'at once' : `a fixed ${formatMs(backoff.ms)}`;
  const jitter =
    backoff.jitter === 'symmetric'
      ? `±${Math.round(backoff.jitterRatio * 100)} %`
      : `+0–${Math.round(backoff.jitterRatio * 100)} %`;
  return `${formatMs(backoff.baseMs)} × 2ⁿ up to ${formatMs(backoff.capMs)} ${jitter}`;
}

function retryAfterWords(retryAfter: AccountPolicy['retryAfter']): string {
  return retryAfter.honour
    ? `Retry-After honoured up to ${formatMs(retryAfter.capMs)}`
    : 'Retry-After not read';
}

function conversationBudget(account: AccountPolicy): string {
  if (!account.enabled) return 'no retries';
  const n = retries(account.maxRetries);
  const { backoff } = account;
  if (backoff.kind === 'fixed') {
    // The fixed layer: the rows that wait, then everything else.
    const waits = POLICY_KINDS.filter(
      (k) => k !== 'spent_quota' && account.rows[k]?.backoff?.kind === 'fixed',
    )
      .map(
        (k) =>
          `a ${k === 'rate_limit' ? 'rate limit' : categoryLabel(k as ErrorCategory)} waits ${backoffWords(account.rows[k]!.backoff!)}`,
      )
      .join(', ');
    const rest =
      backoff.ms === 0 ? 'anything else goes again at once' : `anything else waits ${backoffWords(backoff)}`;
    return `${n}: ${waits ? `${waits}, ` : ''}${rest}`;
  }
  return `${n}, ${backoffWords(backoff)}, ${retryAfterWords(account.retryAfter)}`;
}

function backgroundBudget(account: AccountPolicy): string {
  if (!account.enabled) return 'no retries';
  const { backoff } = account;
  const wait = backoff.kind === 'exponential' ? `${formatMs(backoff.baseMs)} × 2ⁿ` : backoffWords(backoff);
  return `${retries(account.maxRetries)}, ${wait} (its own account)`;
}

/** A row's own terms in words, where they differ from its account's. */
function rowTermsWords(account: AccountPolicy, kind: RetryErrorKind): string | undefined {
  const row = policyKind(kind);
  if (row === undefined || !account.enabled) return undefined;
  const own = account.rows[row];
  if (!own || own.action !== 'retry') return undefined;
  const parts: string[] = [];
  if (own.budget !== undefined && own.budget < account.maxRetries) parts.push(retries(own.budget));
  if (own.backoff && !(account.backoff.kind === 'fixed' && own.backoff.kind === 'fixed'))
    parts.push(backoffWords(own.backoff));
  if (own.retryAfter) parts.push(retryAfterWords(own.retryAfter));
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function fallbackNote(policy: RetryPolicy): string | undefined {
  const { fallback } = policy;
  if (!fallback.enabled) return undefined;
  const chain = fallback.chain
    .map((m) => `${m.model || 'the vendor’s fallback model'}${m.vendor ? ` on ${m.vendor}` : ''}`)
    .join(', then ');
  const cooldown = fallback.cooldown
    ? `; a model that fails ${fallback.cooldown.afterFailures} attempts in a row is skipped for ${formatMs(fallback.cooldown.seconds * 1000)} of run time`
    : '';
  return `after ${fallback.afterOverloads} consecutive overloaded errors the call moves to ${chain}${cooldown}`;
}

/** The HTTP statuses the vendor SDKs retry on their own (their shouldRetry, after x-should-retry), and connection errors. */
export const SDK_RETRIED_STATUSES = [408, 409, 429] as const;

function notes(config: RecoveryConfig, policy: RetryPolicy): string[] {
  const out: string[] = [];
  const { compaction, watchdog, retry } = config;
  if (!config.policy && retry.enabled && retry.retryOn === 'rate_limit_overloaded') {
    out.push(
      "where this differs from s11: a 429 whose body says the quota is spent is not retried, as the classifier calls it final; the source's with_retry catches every RateLimitError and would retry it like any rate limit",
    );
  }
  const fallback = fallbackNote(policy);
  if (fallback && config.policy) out.push(fallback);
  if (policy.contextWindow) {
    out.push(
      `context overflow first moves the run to ${policy.contextWindow.model}${policy.contextWindow.vendor ? ` on ${policy.contextWindow.vendor}` : ''} (a larger window, the history whole; once per run)`,
    );
  }
  out.push(
    compaction.waterfall
      ? `context overflow goes to the overflow waterfall (budget ${compaction.waterfallBudget}), not the retry ladder`
      : compaction.reactive
        ? `context overflow goes to the reactive compact (keep the last ${compaction.reactiveKeepMessages} messages, once per run), not the retry ladder`
        : 'context overflow is not retried and nothing compacts: it ends the run',
  );
  if (watchdog.enabled) {
    out.push(
      `whatever the category, a stream cut after content arrived (Partial) is kept, not retried; one the watchdog stopped before any content (Empty) goes again at once within the same budget; ${watchdog.streamErrorCap} stream errors in a row end the call`,
    );
  }
  if (config.sdkMaxRetries > 0) {
    out.push(
      `beneath the loop, the vendor SDK resends a request up to ${config.sdkMaxRetries} times on HTTP ${SDK_RETRIED_STATUSES.join(', ')} and 5xx or a connection error, whatever the category (the server's x-should-retry first)`,
    );
  }
  return out;
}

/** A configuration's retry rules, one row per kind of error, rendered from its policy by the functions the retry accounts decide with. */
export function retryRulesTable(config: RecoveryConfig): RetryRulesTable {
  const policy = policyOf(config);
  return {
    ...(policy.name ? { policy: policy.name } : {}),
    rows: retryTableKinds().map((kind) => {
      const conversation = rowTermsWords(policy.foreground, kind);
      const background = rowTermsWords(policy.background, kind);
      return {
        kind,
        label: kindLabel(kind),
        conversation: policyRetryRule(policy.foreground, 'foreground', kind),
        background: policyRetryRule(policy.background, 'background', kind),
        ...(conversation || background
          ? { terms: { ...(conversation ? { conversation } : {}), ...(background ? { background } : {}) } }
          : {}),
      };
    }),
    budgets: {
      conversation: conversationBudget(policy.foreground),
      background: backgroundBudget(policy.background),
    },
    notes: notes(config, policy),
  };
}
