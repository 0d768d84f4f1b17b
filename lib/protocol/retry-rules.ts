import type { ErrorCategory, RetryDeclinedRule } from './events';
import type { RecoveryConfig } from './recovery';
import { categoryLabel } from './category-label';
import { formatMs } from './format-duration';

/**
 * The retry rules as data: for each kind of error the classifier can name, whether a
 * configuration's retry accounts retry it, and by which rule. The engine's retry accounts
 * (lib/engine/retry/retry-account.ts) decide with these functions, and the preset's table
 * (retryRulesTable, shown under the preset picker and on the classifier lesson) is built from
 * them, so the table cannot say what the decision does not do. Zod-free: the browser imports it by path.
 */

type RetryConfig = RecoveryConfig['retry'];
type RetryOn = RetryConfig['retryOn'];

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
    }
  | {
      retried: false;
      by: string;
      declined: Extract<RetryDeclinedRule, 'retry_off' | 'not_retryable' | 'category_not_retried'>;
      /** The decision in words (the retry_declined event's why). */
      why: string;
    };

const RULE_NAMES: Record<RetryOn, string> = {
  exclusion: 'exclusion (CodeSmith)',
  transient: 'classifier',
  rate_limit_overloaded: '429 and 529 only (s11)',
  everything: 'every error',
};

const SAME_AGAIN = 'the same request would fail the same way';

function notRetryable(
  kind: RetryErrorKind,
  by: string,
  classifierRule: string | undefined,
  because: string = SAME_AGAIN,
): RetryRuleVerdict {
  const rule = classifierRule ? `classifier rule ${classifierRule}` : categoryLabel(kind.category);
  return { retried: false, by, declined: 'not_retryable', why: `not retryable (${rule}): ${because}` };
}

/**
 * The conversation's (foreground) account: does this configuration retry the error? `rule` is
 * the classifier rule that named it, for the words.
 */
export function foregroundRetryRule(
  config: RecoveryConfig,
  kind: RetryErrorKind,
  rule?: string,
): RetryRuleVerdict {
  const { retry } = config;
  const by = RULE_NAMES[retry.retryOn];
  if (!retry.enabled)
    return {
      retried: false,
      by: 'retry off',
      declined: 'retry_off',
      why: 'retry is off in this configuration',
    };
  if (kind.lasting === 'aborted') return notRetryable(kind, by, rule, 'the call was aborted by its caller');
  if (kind.category === 'context_length') return notRetryable(kind, 'own channel', rule);
  switch (retry.retryOn) {
    case 'exclusion':
      if (EXCLUSION_FINAL.has(kind.category)) return notRetryable(kind, by, rule);
      return retriedBy(
        kind,
        by,
        'CodeSmith’s exclusion rule retries every error but authentication, permission and context overflow',
      );
    case 'everything':
      return retriedBy(kind, by, 'this configuration retries every error');
    case 'transient':
      return classifierRetryable(kind) ? { retried: true, by } : notRetryable(kind, by, rule);
    case 'rate_limit_overloaded':
      if (!classifierRetryable(kind)) return notRetryable(kind, by, rule);
      if (!RATE_LIMIT_OVERLOADED.has(kind.category)) {
        return {
          retried: false,
          by,
          declined: 'category_not_retried',
          why: `${kind.category} is not retried by this configuration (only rate limits and overloads are)`,
        };
      }
      return { retried: true, by };
  }
}

function retriedBy(kind: RetryErrorKind, by: string, words: string): RetryRuleVerdict {
  return classifierRetryable(kind) ? { retried: true, by } : { retried: true, by, despiteClassifier: words };
}

/**
 * Auxiliary calls' (background) account: only network, rate-limit and timeout errors. Under
 * CodeSmith's exclusion rule a spent quota is a rate limit like any other (its text classifier
 * files "quota" there); otherwise the classifier's final verdicts hold here too.
 */
export function backgroundRetryRule(
  config: RecoveryConfig,
  kind: RetryErrorKind,
  rule?: string,
): RetryRuleVerdict {
  const { background, retry } = config;
  const by = 'network, rate limit, timeout';
  if (!background.enabled)
    return {
      retried: false,
      by: 'retry off',
      declined: 'retry_off',
      why: 'background retry is off in this configuration',
    };
  if (kind.lasting === 'aborted') return notRetryable(kind, by, rule, 'the call was aborted by its caller');
  const final =
    retry.retryOn === 'exclusion' ? EXCLUSION_FINAL.has(kind.category) : !classifierRetryable(kind);
  if (final) return notRetryable(kind, by, rule);
  if (!BACKGROUND_RETRIED.has(kind.category)) {
    return {
      retried: false,
      by,
      declined: 'category_not_retried',
      why: `${kind.category} is not retried for background calls (only network, rate-limit and timeout errors are)`,
    };
  }
  return { retried: true, by };
}

/** One row of a configuration's retry table: a kind of error and what each account does with it. */
export interface RetryTableRow {
  kind: RetryErrorKind;
  /** The kind in the UI's words ("rate limited", "spent quota (a 429 or 402 no wait fixes)"). */
  label: string;
  conversation: RetryRuleVerdict;
  background: RetryRuleVerdict;
}

export interface RetryRulesTable {
  rows: RetryTableRow[];
  /** The budget each account retries within, in words. */
  budgets: { conversation: string; background: string };
  /** Rules that act whatever the category (the watchdog, the SDK beneath the loop, the context channel). */
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

function conversationBudget(config: RecoveryConfig): string {
  const { retry } = config;
  if (!retry.enabled) return 'no retries';
  const n = `${retry.maxRetries} ${retry.maxRetries === 1 ? 'retry' : 'retries'}`;
  if (retry.backoff === 'fixed')
    return `${n}: a rate limit waits a fixed ${formatMs(retry.fixedDelayMs)}, anything else goes again at once`;
  const jitter =
    retry.jitterMode === 'symmetric'
      ? `±${Math.round(retry.jitterRatio * 100)} %`
      : `+0–${Math.round(retry.jitterRatio * 100)} %`;
  const after = retry.honorRetryAfter
    ? `, Retry-After honoured up to ${formatMs(retry.retryAfterCapMs)}`
    : ', Retry-After not read';
  return `${n}, ${formatMs(retry.baseDelayMs)} × 2ⁿ up to ${formatMs(retry.maxDelayMs)} ${jitter}${after}`;
}

function backgroundBudget(config: RecoveryConfig): string {
  const { background } = config;
  if (!background.enabled) return 'no retries';
  return `${background.maxRetries} ${background.maxRetries === 1 ? 'retry' : 'retries'}, ${formatMs(background.baseDelayMs)} × 2ⁿ (its own account)`;
}

/** The HTTP statuses the vendor SDKs retry on their own (their shouldRetry, after x-should-retry), and connection errors. */
export const SDK_RETRIED_STATUSES = [408, 409, 429] as const;

function notes(config: RecoveryConfig): string[] {
  const out: string[] = [];
  const { compaction, watchdog, retry } = config;
  if (retry.enabled && retry.retryOn === 'rate_limit_overloaded') {
    out.push(
      "where this differs from s11: a 429 whose body says the quota is spent is not retried, as the classifier calls it final; the source's with_retry catches every RateLimitError and would retry it like any rate limit",
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

/** A configuration's retry rules, one row per kind of error, from the same functions the retry accounts decide with. */
export function retryRulesTable(config: RecoveryConfig): RetryRulesTable {
  return {
    rows: retryTableKinds().map((kind) => ({
      kind,
      label: kindLabel(kind),
      conversation: foregroundRetryRule(config, kind),
      background: backgroundRetryRule(config, kind),
    })),
    budgets: { conversation: conversationBudget(config), background: backgroundBudget(config) },
    notes: notes(config),
  };
}
