import type { ErrorCategory } from './events';
import type { RecoveryConfig } from './recovery';
import type { AccountPolicy, PolicyBackoff, PolicyRow, RetryKind, RetryPolicy } from './retry-policy';
import {
  BACKGROUND_RETRIED,
  CLASSIFIER_FINAL,
  EXCLUSION_FINAL,
  POLICY_KINDS,
  policyRetryRule,
  RATE_LIMIT_OVERLOADED,
  type RetryErrorKind,
  type RetryRuleVerdict,
} from './retry-rules';

/**
 * The presets' policies: a configuration's retry, background and fallback fields read as a
 * retry policy (lib/protocol/retry-policy.ts), decided by the rules in lib/protocol/retry-rules.ts.
 * A configuration without a policy of its own runs the one its fields describe (policyOf): every
 * preset is such a policy, and a config stored before policies existed still runs as it did.
 * Zod-free: the browser imports it by path.
 */

type RetryConfig = RecoveryConfig['retry'];
type RetryOn = RetryConfig['retryOn'];

const RULE_NAMES: Record<RetryOn, string> = {
  exclusion: 'exclusion (CodeSmith)',
  transient: 'classifier',
  rate_limit_overloaded: '429 and 529 only (s11)',
  everything: 'every error',
};

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
