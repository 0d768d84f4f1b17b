import { z } from 'zod';
import { ErrorCategorySchema } from './event-families/model-call-events';

/**
 * A retry policy: the retry behaviour of a configuration as data. Per kind of error, whether a
 * call retries it, within what budget and with what backoff, and whether the server's
 * Retry-After is honoured; a fallback chain of models with per-model cooldowns; and an optional
 * larger-window model to move to on a context overflow. lib/protocol/retry-rules.ts decides
 * with it (the engine's retry accounts read nothing else) and lib/protocol/retry-rules-table.ts
 * builds the retry table shown in the UI from it. A configuration without one runs its preset's
 * (policyOf in preset-policies.ts).
 *
 * Every time in it is on the run's clock: a cooldown of 60 s is 60 s of run time, so a run is
 * the same from its config and seed at any load.
 */

/**
 * The kinds a policy has a row for: every error category but context overflow (it never goes
 * to the retry ladder: it has its own channel, and the policy's `contextWindow` fallback), and
 * a spent quota or billing limit beside the rate limit it is classified as.
 */
export const RetryKindSchema = z.enum([
  ...ErrorCategorySchema.exclude(['context_length']).options,
  'spent_quota',
]);
export type RetryKind = z.infer<typeof RetryKindSchema>;

/** How the wait before a retry is reached. */
export const PolicyBackoffSchema = z.discriminatedUnion('kind', [
  z
    .object({
      /** min(base·2ⁿ, cap) × jitter, n the retries already spent on the call. */
      kind: z.literal('exponential'),
      baseMs: z.number().int().min(0).max(600_000),
      capMs: z.number().int().min(0).max(3_600_000),
      /** symmetric: × (1 ± ratio); additive: × (1 + [0, ratio]). */
      jitter: z.enum(['symmetric', 'additive']),
      jitterRatio: z.number().min(0).max(1),
    })
    .strict(),
  z
    .object({
      /** The same wait every time (0: at once); Retry-After is not read. */
      kind: z.literal('fixed'),
      ms: z.number().int().min(0).max(600_000),
      /** Why the wait is fixed, in words for the retry event ("the engine layer sleeps only on rate limits"). */
      note: z.string().max(300).optional(),
    })
    .strict(),
]);
export type PolicyBackoff = z.infer<typeof PolicyBackoffSchema>;

export const PolicyRetryAfterSchema = z
  .object({
    /** Wait what the server asks (Retry-After, retry-after-ms) instead of the backoff. */
    honour: z.boolean(),
    /** The longest wait honoured as asked; a longer one is cut to this. */
    capMs: z.number().int().min(0).max(86_400_000),
  })
  .strict();

/**
 * One row: what an account does with a kind of error. `retry`: retried within the budget;
 * `final`: not retried, the same request would fail the same way; `skip`: retryable in general,
 * but this account does not retry it.
 */
export const PolicyRowSchema = z
  .object({
    action: z.enum(['retry', 'final', 'skip']),
    /** Retries of this kind one call may spend (the account's `maxRetries` still caps the call); absent: the account's. */
    budget: z.number().int().min(0).max(50).optional(),
    /** Absent: the account's backoff. */
    backoff: PolicyBackoffSchema.optional(),
    /** Absent: the account's Retry-After rule. */
    retryAfter: PolicyRetryAfterSchema.optional(),
  })
  .strict();
export type PolicyRow = z.infer<typeof PolicyRowSchema>;

/** One retry account's policy (the conversation's, or the auxiliary calls'). */
export const AccountPolicySchema = z
  .object({
    /** Off: no failure is retried on this account. */
    enabled: z.boolean(),
    /** Retries one call may spend, of any kind. */
    maxRetries: z.number().int().min(0).max(50),
    /** The rule's short name, shown with each decision ("exclusion (CodeSmith)"). */
    rule: z.string().min(1).max(80),
    backoff: PolicyBackoffSchema,
    retryAfter: PolicyRetryAfterSchema,
    /**
     * A row per kind; a kind without one is decided by the project's classifier (retried when it
     * calls it retryable, else final).
     */
    rows: z.partialRecord(RetryKindSchema, PolicyRowSchema),
    /** Said when a row retries what the classifier calls final ("CodeSmith’s exclusion rule retries every error but …"). */
    despiteClassifier: z.string().max(300).optional(),
    /** The retried kinds in words, for a skipped kind's reason ("rate limits and overloads"); absent: listed from the rows. */
    retriedWords: z.string().max(200).optional(),
  })
  .strict();
export type AccountPolicy = z.infer<typeof AccountPolicySchema>;

/** A model the fallback chain can move to: on the run's vendor, or another (a cross-vendor swap). */
export const PolicyModelSchema = z
  .object({
    /** Another vendor to continue on; absent: the run's own. */
    vendor: z.string().max(40).optional(),
    /** The model; empty: the vendor's configured fallback model. */
    model: z.string().max(200),
  })
  .strict();
export type PolicyModel = z.infer<typeof PolicyModelSchema>;

export const FallbackPolicySchema = z
  .object({
    enabled: z.boolean(),
    /** Consecutive overloaded errors after which the call moves to the next model of the chain (for good). */
    afterOverloads: z.number().int().min(1).max(20),
    /** The models after the run's own, in order. */
    chain: z.array(PolicyModelSchema).max(8),
    /**
     * A model that fails this many attempts in a row (any retried error) is skipped for `seconds`
     * of the run's clock; the call goes on with the next model of the chain not cooling down,
     * and comes back to the skipped one when its cooldown has ended. Absent: no cooldown.
     */
    cooldown: z
      .object({
        afterFailures: z.number().int().min(1).max(50),
        seconds: z.number().min(1).max(86_400),
      })
      .strict()
      .optional(),
  })
  .strict();
export type FallbackPolicy = z.infer<typeof FallbackPolicySchema>;

export const RetryPolicySchema = z
  .object({
    /** A name for tables and sweeps ("codesmith", "patient"). */
    name: z.string().max(80).optional(),
    /** The conversation's calls. */
    foreground: AccountPolicySchema,
    /** Auxiliary calls (summaries, titles): their own, shorter account. */
    background: AccountPolicySchema,
    fallback: FallbackPolicySchema,
    /**
     * On a context overflow, move the run to this larger-window model before the context channel
     * compacts anything: the history goes on whole, where a compaction would summarise or trim
     * it. Once per run; an overflow on the larger model goes to the context channel as before.
     */
    contextWindow: PolicyModelSchema.optional(),
  })
  .strict()
  .superRefine((policy, ctx) => {
    if (policy.fallback.enabled && policy.fallback.chain.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['fallback', 'chain'],
        message:
          'fallback is on but the chain is empty: name at least one model (model "" is the vendor’s fallback)',
      });
    }
  });
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;
