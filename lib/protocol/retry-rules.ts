import type { ErrorCategory, RetryDeclinedRule } from './events';
import type { AccountPolicy, PolicyBackoff, PolicyRow, RetryKind } from './retry-policy';
import { categoryLabel } from './category-label';

/**
 * The retry rules, decided from a retry policy (lib/protocol/retry-policy.ts): for each kind of
 * error the classifier can name, whether an account of a policy retries it, by which row, within
 * what budget and with what backoff. The engine's retry accounts (lib/engine/retry/retry-account.ts)
 * decide with these functions, and the preset's table (retryRulesTable in
 * lib/protocol/retry-rules-table.ts, shown under the preset picker and on the classifier lesson) is
 * built from them, so the table cannot say what the decision does not do. A configuration without
 * a policy of its own runs the one its retry fields describe (policyOf in
 * lib/protocol/preset-policies.ts): every preset is such a policy.
 * Zod-free: the browser imports it by path.
 */

/**
 * Every error category, in the order the table lists them. Typed as a record so a category
 * added to the schema fails to compile until it is placed here.
 */
const CATEGORY_ORDER: Record<ErrorCategory, number> = {
  rate_limit: 0,
  overloaded: 1,
  timeout: 2,
  network: 3,
  internal: 4,
  parse: 5,
  state: 6,
  unknown: 7,
  tool: 8,
  invalid_input: 9,
  authentication: 10,
  authorization: 11,
  context_length: 12,
};
export const ERROR_CATEGORIES = (Object.keys(CATEGORY_ORDER) as ErrorCategory[]).sort(
  (a, b) => CATEGORY_ORDER[a] - CATEGORY_ORDER[b],
);

/**
 * The categories the project's classifier calls final (its `retryable` false): the same request
 * would fail the same way however long one waits. Context overflow is final for the retry
 * ladder in every configuration: it has its own recovery channel.
 */
export const CLASSIFIER_FINAL: ReadonlySet<ErrorCategory> = new Set([
  'authentication',
  'authorization',
  'context_length',
  'invalid_input',
]);

/** CodeSmith's exclusion rule: only identity and authorization errors, and context overflow (its own channel), fail at once. */
export const EXCLUSION_FINAL: ReadonlySet<ErrorCategory> = new Set([
  'authentication',
  'authorization',
  'context_length',
]);

/** s11's with_retry catches only RateLimitError (429) and OverloadedError (529). */
export const RATE_LIMIT_OVERLOADED: ReadonlySet<ErrorCategory> = new Set(['rate_limit', 'overloaded']);

/** Auxiliary calls (summaries, titles) retry only the plainly transient categories (CodeSmith's compaction account). */
export const BACKGROUND_RETRIED: ReadonlySet<ErrorCategory> = new Set(['network', 'rate_limit', 'timeout']);

/**
 * What the retry rules read of a classified error: its category and, when the classifier found
 * that waiting cannot help whatever the category says, why — a spent quota or billing limit (a
 * rate limit no wait fixes), or the caller's own abort.
 */
export interface RetryErrorKind {
  category: ErrorCategory;
  lasting?: 'spent_quota' | 'aborted';
}

/** The project's classifier's verdict on a kind of error: can retrying it help? */
export function classifierRetryable(kind: RetryErrorKind): boolean {
  return kind.lasting === undefined && !CLASSIFIER_FINAL.has(kind.category);
}

/** One account's decision on one kind of error, with the rule that made it. */
export type RetryRuleVerdict =
  | {
      retried: true;
      /** The rule, shortly ("exclusion (CodeSmith)"). */
      by: string;
      /** Set when the classifier calls the error final and the rule retries it anyway: the words for that. */
      despiteClassifier?: string;
      /** The policy row that decided (absent: no row, the classifier's verdict). */
      row?: RetryKind;
    }
  | {
      retried: false;
      by: string;
      declined: Extract<RetryDeclinedRule, 'retry_off' | 'not_retryable' | 'category_not_retried'>;
      /** The decision in words (the retry_declined event's why). */
      why: string;
      row?: RetryKind;
    };

const SAME_AGAIN = 'the same request would fail the same way';

/** Which account a policy decides for (their words differ: "retry is off" / "background retry is off"). */
export type PolicyAccountName = 'foreground' | 'background';

/** The policy row a kind of error is decided by: a spent quota has its own beside the rate limit. */
export function policyKind(kind: RetryErrorKind): RetryKind | undefined {
  if (kind.category === 'context_length') return undefined;
  return kind.lasting === 'spent_quota' ? 'spent_quota' : kind.category;
}

/** Every kind a policy has a row for, in the table's order. */
export const POLICY_KINDS: readonly RetryKind[] = ERROR_CATEGORIES.flatMap((category): RetryKind[] =>
  category === 'context_length' ? [] : category === 'rate_limit' ? ['rate_limit', 'spent_quota'] : [category],
);

/** The row in force for a kind: the policy's own, or the classifier's verdict when it has none. */
export function rowFor(account: AccountPolicy, kind: RetryKind): PolicyRow & { given: boolean } {
  const row = account.rows[kind];
  if (row) return { ...row, given: true };
  const category = kind === 'spent_quota' ? 'rate_limit' : kind;
  const lasting = kind === 'spent_quota' ? ('spent_quota' as const) : undefined;
  return {
    action: classifierRetryable({ category, ...(lasting ? { lasting } : {}) }) ? 'retry' : 'final',
    given: false,
  };
}

/** The budget, backoff and Retry-After rule a retried kind runs with: its row's, else its account's. */
export function rowTerms(
  account: AccountPolicy,
  kind: RetryKind,
): {
  budget: number;
  backoff: PolicyBackoff;
  retryAfter: AccountPolicy['retryAfter'];
  /** Where the backoff comes from: the row's own, or the account's. */
  backoffSource: 'row' | 'account';
} {
  const row = account.rows[kind];
  return {
    budget: Math.min(row?.budget ?? account.maxRetries, account.maxRetries),
    backoff: row?.backoff ?? account.backoff,
    retryAfter: row?.retryAfter ?? account.retryAfter,
    backoffSource: row?.backoff ? 'row' : 'account',
  };
}

function notRetryable(
  kind: RetryErrorKind,
  by: string,
  classifierRule: string | undefined,
  because: string = SAME_AGAIN,
  row?: RetryKind,
): RetryRuleVerdict {
  const rule = classifierRule ? `classifier rule ${classifierRule}` : categoryLabel(kind.category);
  return {
    retried: false,
    by,
    declined: 'not_retryable',
    why: `not retryable (${rule}): ${because}`,
    ...(row ? { row } : {}),
  };
}

/** The retried kinds in words, when the policy does not give them ("rate limited, overloaded"). */
function retriedList(account: AccountPolicy): string {
  const kinds = POLICY_KINDS.filter((k) => rowFor(account, k).action === 'retry');
  const words = kinds.map((k) => (k === 'spent_quota' ? 'spent quota' : categoryLabel(k)));
  return words.length === 0
    ? 'no errors'
    : words.length === 1
      ? words[0]!
      : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * One account's decision on a kind of error, from its policy. `rule` is the classifier rule that
 * named the error, for the words. The caller's own abort is never retried, and a context
 * overflow never goes to the retry ladder (it has its own channel), whatever the policy says.
 */
export function policyRetryRule(
  account: AccountPolicy,
  name: PolicyAccountName,
  kind: RetryErrorKind,
  rule?: string,
): RetryRuleVerdict {
  if (!account.enabled)
    return {
      retried: false,
      by: 'retry off',
      declined: 'retry_off',
      why: `${name === 'background' ? 'background retry' : 'retry'} is off in this configuration`,
    };
  const by = account.rule;
  if (kind.lasting === 'aborted') return notRetryable(kind, by, rule, 'the call was aborted by its caller');
  const row = policyKind(kind);
  if (row === undefined) return notRetryable(kind, 'own channel', rule);
  const { action } = rowFor(account, row);
  if (action === 'final') return notRetryable(kind, by, rule, SAME_AGAIN, row);
  if (action === 'skip') {
    const scope = name === 'background' ? 'for background calls' : 'by this configuration';
    return {
      retried: false,
      by,
      declined: 'category_not_retried',
      why: `${kind.category} is not retried ${scope} (only ${account.retriedWords ?? retriedList(account)} are)`,
      row,
    };
  }
  return !classifierRetryable(kind) && account.despiteClassifier
    ? { retried: true, by, despiteClassifier: account.despiteClassifier, row }
    : { retried: true, by, row };
}
