import type { ErrorCategory, RetryDeclinedRule } from './events';
import type { RecoveryConfig } from './recovery';
import type { AccountPolicy, PolicyBackoff, PolicyRow, RetryKind, RetryPolicy } from './retry-policy';
import { categoryLabel } from './category-label';
import { formatMs } from './format-duration';

/**
 * The retry rules, decided from a retry policy (lib/protocol/retry-policy.ts): for each kind of
 * error the classifier can name, whether a configuration's retry accounts retry it, by which row
 * of its policy, within what budget and with what backoff. The engine's retry accounts
 * (lib/engine/retry/retry-account.ts) decide with these functions, and the preset's table
 * (retryRulesTable, shown under the preset picker and on the classifier lesson) is built from
 * them, so the table cannot say what the decision does not do. A configuration without a policy
 * of its own runs the one its retry fields describe (policyOf): every preset is such a policy.
 * Zod-free: the browser imports it by path.
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

const RULE_NAMES: Record<RetryOn, string> = {
  exclusion: 'exclusion (CodeSmith)',
  transient: 'classifier',
  rate_limit_overloaded: '429 and 529 only (s11)',
  everything: 'every error',
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

/** The conversation's (foreground) account: does this configuration retry the error? */
export function foregroundRetryRule(
  config: RecoveryConfig,
  kind: RetryErrorKind,
  rule?: string,
): RetryRuleVerdict {
  return policyRetryRule(policyOf(config).foreground, 'foreground', kind, rule);
}

/** Auxiliary calls' (background) account. */
export function backgroundRetryRule(
  config: RecoveryConfig,
  kind: RetryErrorKind,
  rule?: string,
): RetryRuleVerdict {
  return policyRetryRule(policyOf(config).background, 'background', kind, rule);
}

// ---------------------------------------------------------------------------------------------
// The presets' policies: a configuration's retry fields read as a policy.

type Rows = AccountPolicy['rows'];

/** Rows: the kinds retried, the kinds final, every other kind skipped. */
function rowsOf(retried: readonly RetryKind[], final: readonly RetryKind[]): Rows {
  return Object.fromEntries(
    POLICY_KINDS.map((k) => [
      k,
      { action: retried.includes(k) ? 'retry' : final.includes(k) ? 'final' : 'skip' } as PolicyRow,
    ]),
  );
}

/** A set of categories as rows (context overflow has none: its own channel). */
const asRows = (categories: ReadonlySet<ErrorCategory>): RetryKind[] =>
  [...categories].filter((c): c is Exclude<ErrorCategory, 'context_length'> => c !== 'context_length');

/** What the project's classifier calls final, as rows: an expired key, a missing permission, a bad request, a spent quota. */
const CLASSIFIER_FINAL_ROWS: readonly RetryKind[] = [...asRows(CLASSIFIER_FINAL), 'spent_quota'];
/** CodeSmith's exclusion rule, as rows: identity and permission errors. */
const IDENTITY_ROWS: readonly RetryKind[] = asRows(EXCLUSION_FINAL);
const BACKGROUND_ROWS: readonly RetryKind[] = asRows(BACKGROUND_RETRIED);
const EVERY_ROW = POLICY_KINDS;

/**
 * Each retry rule (retry.retryOn) as rows of the conversation's account, and of the background
 * account beside it. Data: the engine has no other branch on the rule.
 */
const RULE_ROWS: Record<
  RetryOn,
  { foreground: Rows; background: Rows; despite?: string; retriedWords?: string }
> = {
  // CodeSmith's exclusion rule: every failure but identity and permission errors; its text
  // classifier files "quota" with rate limits, so a spent quota is retried on both accounts.
  exclusion: {
    foreground: rowsOf(
      EVERY_ROW.filter((k) => !IDENTITY_ROWS.includes(k)),
      IDENTITY_ROWS,
    ),
    background: rowsOf([...BACKGROUND_ROWS, 'spent_quota'], IDENTITY_ROWS),
    despite:
      'CodeSmith’s exclusion rule retries every error but authentication, permission and context overflow',
  },
  transient: {
    foreground: rowsOf(
      EVERY_ROW.filter((k) => !CLASSIFIER_FINAL_ROWS.includes(k)),
      CLASSIFIER_FINAL_ROWS,
    ),
    background: rowsOf(BACKGROUND_ROWS, CLASSIFIER_FINAL_ROWS),
  },
  rate_limit_overloaded: {
    foreground: rowsOf(asRows(RATE_LIMIT_OVERLOADED), CLASSIFIER_FINAL_ROWS),
    background: rowsOf(BACKGROUND_ROWS, CLASSIFIER_FINAL_ROWS),
    retriedWords: 'rate limits and overloads',
  },
  everything: {
    foreground: rowsOf(EVERY_ROW, []),
    background: rowsOf(BACKGROUND_ROWS, CLASSIFIER_FINAL_ROWS),
    despite: 'this configuration retries every error',
  },
};

/** CodeSmith's engine layer (retry.backoff `fixed`): a rate limit sleeps a fixed delay, anything else goes at once. */
const FIXED_LAYER_NOTE = 'the engine layer sleeps only on rate limits, and never backs off';

/**
 * The policy a configuration's retry, background and fallback fields describe: how every preset
 * is a policy, and how a config stored before policies existed still runs as it did.
 */
export function presetPolicy(config: RecoveryConfig): RetryPolicy {
  const { retry, background, fallback } = config;
  const rules = RULE_ROWS[retry.retryOn];
  const exponential: PolicyBackoff = {
    kind: 'exponential',
    baseMs: retry.baseDelayMs,
    capMs: retry.maxDelayMs,
    jitter: retry.jitterMode,
    jitterRatio: retry.jitterRatio,
  };
  const retryAfter = { honour: retry.honorRetryAfter, capMs: retry.retryAfterCapMs };
  const fixedRate: PolicyBackoff = { kind: 'fixed', ms: retry.fixedDelayMs };
  const foregroundRows: Rows =
    retry.backoff === 'fixed'
      ? Object.fromEntries(
          Object.entries(rules.foreground).map(([k, row]) => [
            k,
            k === 'rate_limit' || k === 'spent_quota' ? { ...row, backoff: fixedRate } : row,
          ]),
        )
      : rules.foreground;
  const fallbackModel = { ...(fallback.vendor ? { vendor: fallback.vendor } : {}), model: fallback.model };
  return {
    foreground: {
      enabled: retry.enabled,
      maxRetries: retry.maxRetries,
      rule: RULE_NAMES[retry.retryOn],
      backoff: retry.backoff === 'fixed' ? { kind: 'fixed', ms: 0, note: FIXED_LAYER_NOTE } : exponential,
      retryAfter,
      rows: foregroundRows,
      ...(rules.despite ? { despiteClassifier: rules.despite } : {}),
      ...(rules.retriedWords ? { retriedWords: rules.retriedWords } : {}),
    },
    background: {
      enabled: background.enabled,
      maxRetries: background.maxRetries,
      rule: 'network, rate limit, timeout',
      backoff: { ...exponential, baseMs: background.baseDelayMs },
      retryAfter,
      rows: rules.background,
      retriedWords: 'network, rate-limit and timeout errors',
    },
    fallback: { enabled: fallback.enabled, afterOverloads: fallback.afterOverloads, chain: [fallbackModel] },
  };
}

/** The policy a configuration runs: its own (recovery.policy), else the one its retry fields describe. */
export function policyOf(config: RecoveryConfig): RetryPolicy {
  return config.policy ?? presetPolicy(config);
}

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
