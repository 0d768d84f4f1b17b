import { z } from 'zod';
import { MODULE_TOOLS_CONFIG, MODULE_TOOLS_CONFIG_RECORDED } from '@/lib/mechanisms/modules/protocol';
import { COMPACTION_OFF, PRESET_IDS, type PresetId } from './preset-ids';
import { RetryPolicySchema } from './retry-policy';

export { COMPACTION_OFF, PRESET_IDS, asPresetId } from './preset-ids';

/**
 * Recovery configuration: every mechanism with its parameters, each
 * switchable on its own so a lesson can show the same fault with and without it.
 */

export const RetryConfigSchema = z.object({
  enabled: z.boolean(),
  /** Retries after the first attempt (the budget of one foreground call). */
  maxRetries: z.number().int().min(0).max(50),
  baseDelayMs: z.number().int().min(0).max(600_000),
  maxDelayMs: z.number().int().min(0).max(3_600_000),
  /** symmetric: delay × (1 ± ratio); additive: delay × (1 + [0, ratio]). */
  jitterMode: z.enum(['symmetric', 'additive']),
  jitterRatio: z.number().min(0).max(1),
  honorRetryAfter: z.boolean(),
  /** Longest server-requested wait that is honoured as asked. */
  retryAfterCapMs: z.number().int().min(0).max(86_400_000),
  /**
   * Which failures the ladder retries (lib/protocol/retry-rules.ts decides, and each preset's
   * table is built from the same functions): `exclusion` = CodeSmith's rule: every failure but
   * authentication, permission and context overflow (its own channel), a bad request and a spent
   * quota included; `transient` = everything the project's classifier calls retryable (a bad
   * request, a spent quota or billing limit also end the call at once); `rate_limit_overloaded` =
   * only 429 and 529 (s11); `everything` = every failure, whatever the classifier says (a loop
   * without a classifier: an expired key is retried like a rate limit; a context overflow still
   * goes to the context channel) — no preset's: the classifier lesson switched off.
   * (Defaulted in RecoveryConfigSchema only, so logs written before it still parse: they ran `transient`.)
   */
  retryOn: z.enum(['exclusion', 'transient', 'rate_limit_overloaded', 'everything']),
  /**
   * How the wait before a retry is reached: `exponential` = min(base·2ⁿ, cap) with jitter;
   * `fixed` = CodeSmith's engine layer: a rate limit sleeps `fixedDelayMs` (Retry-After is not
   * read: it is a string by the time it reaches that layer), anything else is retried at once.
   * (Defaulted in RecoveryConfigSchema only, so logs written before it still parse.)
   */
  backoff: z.enum(['exponential', 'fixed']),
  /** The fixed sleep on a rate limit in `fixed` mode (CodeSmith: 2 s). */
  fixedDelayMs: z.number().int().min(0).max(600_000),
});

export const BackgroundRetryConfigSchema = z.object({
  enabled: z.boolean(),
  maxRetries: z.number().int().min(0).max(10),
  baseDelayMs: z.number().int().min(0).max(60_000),
});

export const WatchdogConfigSchema = z.object({
  enabled: z.boolean(),
  /** Deadline for the next stream content event on the first attempt. */
  baseMs: z.number().int().min(100).max(3_600_000),
  /** Added to the window for every retry already spent on this call. */
  perRetryMs: z.number().int().min(0).max(600_000),
  /**
   * Consecutive stream errors after which the call fails, while the watchdog is on. It bounds
   * the watchdog's free (Empty) retries, so it cannot be switched off: 0 would mean endless retries.
   */
  streamErrorCap: z
    .number()
    .int()
    .min(1, 'the stream error cap must be at least 1: without it an empty stream is retried without end')
    .max(50),
});

export const FallbackConfigSchema = z.object({
  enabled: z.boolean(),
  afterOverloads: z.number().int().min(1).max(20),
  /** Model to switch to; empty means the vendor's configured fallback. */
  model: z.string().max(200),
  /**
   * Cross-vendor fallback: continue on this vendor (with `model`, or its default) instead of
   * the same vendor's fallback model. Absent or empty: same vendor.
   */
  vendor: z.string().max(40).optional(),
});

export const ToolRecoveryConfigSchema = z.object({
  safeExecutor: z.boolean(),
  failureBudget: z.number().int().min(1).max(100),
  shortCircuitRepeats: z.boolean(),
  timeoutMs: z.number().int().min(10).max(600_000),
  truncateChars: z.number().int().min(0).max(1_000_000),
  loopGuard: z.boolean(),
  blockRepeatAt: z.number().int().min(2).max(100),
  warnAfterFailures: z.number().int().min(1).max(100),
  haltAfterFailures: z.number().int().min(1).max(1000),
  /** The repair ladder's first rung: malformed argument JSON (trailing commas, single quotes, unquoted keys, a cut-off brace) is repaired before the model is asked again. */
  repairJson: z.boolean(),
  /** Its second rung: a value the tool's schema can take unambiguously ("7" for a number, "true" for a boolean) is converted. */
  coerceArgs: z.boolean(),
  /**
   * The check rate: at most this many sandboxed checks (run_check) per `checkRateWindowMs` of
   * run time; one more is refused without running (0 = off). Every preset has the same limit:
   * it keeps a model that calls its check in a loop from spending the machine, not a lesson.
   */
  checkRateMax: z.number().int().min(0).max(10_000),
  checkRateWindowMs: z.number().int().min(1_000).max(86_400_000),
  // The mechanism modules' fields (repairInterrupted, maxParallel: lib/mechanisms/<name>/protocol.ts).
  ...MODULE_TOOLS_CONFIG,
});

/** No check rate: what a log written before the limit existed ran with. */
const CHECK_RATE_BEFORE_LIMIT = { checkRateMax: 0, checkRateWindowMs: 60_000 } as const;

export const ContextConfigSchema = z.object({
  oldResultCompaction: z.boolean(),
  oldResultMinChars: z.number().int().min(0).max(10_000_000),
  keepRecentIterations: z.number().int().min(0).max(100),
});

/**
 * The context channel (lib/engine/context): proactive full compaction near the window, the
 * overflow waterfall when the vendor still says the prompt is too long, and the circuit
 * breaker on the summary call. Old-result stubs stay under `context`.
 */
export const CompactionConfigSchema = z.object({
  /** Summarise older history when a request nears the window. */
  proactive: z.boolean(),
  /** Fraction of the model's window at which proactive compaction runs (and the size rungs aim for). */
  thresholdRatio: z.number().min(0.1).max(0.99),
  /** Newest log messages a summary never covers (sent verbatim after it). */
  keepRecentMessages: z.number().int().min(2).max(50),
  /** Output cap of the summary call. */
  summaryMaxTokens: z.number().int().min(64).max(8_192),
  /** The overflow waterfall: micro-compact → forced full compaction → hard trim. */
  waterfall: z.boolean(),
  /** Overflow recoveries allowed for one step before the run ends. */
  waterfallBudget: z.number().int().min(1).max(10),
  /** Messages a hard trim always keeps. */
  trimFloor: z.number().int().min(2).max(50),
  /** Circuit breaker on the summary call. */
  breaker: z.boolean(),
  /** Consecutive failed summary calls that open it. */
  breakerFailures: z.number().int().min(1).max(20),
  /** Run time it stays open before a half-open probe. */
  breakerCooldownMs: z.number().int().min(1_000).max(86_400_000),
  /** s11's reactive compact (when the waterfall is off): on prompt-too-long, keep the newest messages and retry once. */
  reactive: z.boolean(),
  /** Messages a reactive compact keeps (s11: the last 5). */
  reactiveKeepMessages: z.number().int().min(1).max(50),
});
export type CompactionConfig = z.infer<typeof CompactionConfigSchema>;

/** The largest output cap a run may ask for (above CodeSmith's preventive 262,144; a model's own limit still applies). */
export const OUTPUT_CAP_MAX = 1_048_576;

/**
 * The output cap and what happens when a response ends on it (s11: escalate once, then
 * continue at most 3 times), and the project's continuation after a Partial stream.
 */
export const OutputRecoveryConfigSchema = z.object({
  /** Output cap of a model call (the run config's `maxOutputTokens` overrides it). */
  maxTokens: z.number().int().min(16).max(OUTPUT_CAP_MAX),
  /** First length-ended round: resend the same request with `escalatedMaxTokens`, the cut output not kept. */
  escalate: z.boolean(),
  escalatedMaxTokens: z.number().int().min(16).max(OUTPUT_CAP_MAX),
  /** Later length-ended rounds: keep the cut output and ask the model to continue, at most this many times. */
  maxContinuations: z.number().int().min(0).max(20),
  /** After a Partial (a stream cut after content), ask the model to continue (a project choice; the seed presents it and stops). */
  continueAfterPartial: z.boolean(),
  /**
   * A round cut by the cap whose tool calls do not parse has them refused, and the model is
   * asked to resend (CodeSmith). Off: they go to the tools as they are, where the repair ladder
   * may close the cut JSON and run the call with half its input.
   */
  refuseCutToolCalls: z.boolean(),
});

/** What a log written before the output section existed did: 8,192 tokens, continue after a Partial. */
const OUTPUT_BEFORE_SECTION: z.infer<typeof OutputRecoveryConfigSchema> = {
  maxTokens: 8192,
  escalate: false,
  escalatedMaxTokens: 64_000,
  maxContinuations: 0,
  continueAfterPartial: true,
  refuseCutToolCalls: true,
};

/**
 * The vendor's prompt cache: the stable prefix (tools, system, settled history) marked for
 * Anthropic's cache (`cache_control` breakpoints); OpenAI dialects cache long prefixes on their
 * own, so off there plays a vendor that keeps no cache (the simulated vendors honour it).
 */
const cacheFields = {
  promptCaching: z.boolean(),
  /**
   * The cache-protection floor: with prompt caching on, a full compaction (the summary) is held
   * back while the last request read at least this many tokens from the vendor's cache, since
   * a summary rewrites that prefix and the next request would write it anew. 0: no floor.
   */
  protectionFloorTokens: z.number().int().min(0).max(10_000_000),
  /** The overflow waterfall's forced compaction may bypass the floor (the prompt no longer fits); off, the floor holds it back too and the waterfall goes on to its hard trim. */
  forcedBypassesFloor: z.boolean(),
};
/** A config stored before the floor existed had none (and the bypass on). */
export const CacheConfigSchema = z.object({
  ...cacheFields,
  protectionFloorTokens: cacheFields.protectionFloorTokens.default(0),
  forcedBypassesFloor: cacheFields.forcedBypassesFloor.default(true),
});
/** Overrides name only what they change: no default is filled in over the preset's value. */
const CacheOverridesSchema = z.object(cacheFields).partial().strict();

/** No cache: what a log written before prompt caching existed ran with. */
const CACHE_BEFORE_SECTION: z.infer<typeof CacheConfigSchema> = {
  promptCaching: false,
  protectionFloorTokens: 0,
  forcedBypassesFloor: true,
};

export const RecoveryConfigSchema = z.object({
  /**
   * The vendor SDK's own retries (`maxRetries` on its client), beneath the loop's: 0 everywhere
   * except the sdk-default preset. Above 0 with the loop's retry on, the layers stack (each
   * loop attempt is up to 1 + this many HTTP requests), as CodeSmith's HTTP layer does under its engine.
   */
  sdkMaxRetries: z.number().int().min(0).max(10),
  // Fields added after runs were first recorded get defaults here, never in the override
  // schemas: an override of one field must not reset its neighbours to a default.
  retry: RetryConfigSchema.extend({
    retryOn: RetryConfigSchema.shape.retryOn.default('transient'),
    backoff: RetryConfigSchema.shape.backoff.default('exponential'),
    fixedDelayMs: RetryConfigSchema.shape.fixedDelayMs.default(2_000),
  }),
  background: BackgroundRetryConfigSchema,
  watchdog: WatchdogConfigSchema,
  fallback: FallbackConfigSchema,
  // The repair ladder came later: a log recorded before it repaired nothing.
  tools: ToolRecoveryConfigSchema.extend({
    repairJson: ToolRecoveryConfigSchema.shape.repairJson.default(false),
    coerceArgs: ToolRecoveryConfigSchema.shape.coerceArgs.default(false),
    checkRateMax: ToolRecoveryConfigSchema.shape.checkRateMax.default(CHECK_RATE_BEFORE_LIMIT.checkRateMax),
    checkRateWindowMs: ToolRecoveryConfigSchema.shape.checkRateWindowMs.default(
      CHECK_RATE_BEFORE_LIMIT.checkRateWindowMs,
    ),
    ...MODULE_TOOLS_CONFIG_RECORDED,
  }),
  context: ContextConfigSchema,
  // Defaulted so traces recorded before the context channel still parse (with it off, as it was).
  compaction: CompactionConfigSchema.extend({
    reactive: CompactionConfigSchema.shape.reactive.default(false),
    reactiveKeepMessages: CompactionConfigSchema.shape.reactiveKeepMessages.default(5),
  }).default(COMPACTION_OFF),
  // Cut tool calls were refused before the switch existed.
  output: OutputRecoveryConfigSchema.extend({
    refuseCutToolCalls: OutputRecoveryConfigSchema.shape.refuseCutToolCalls.default(true),
  }).default(OUTPUT_BEFORE_SECTION),
  cache: CacheConfigSchema.default(CACHE_BEFORE_SECTION),
  /**
   * The retry policy as data (lib/protocol/retry-policy.ts): when set, the retry accounts, the
   * fallback chain and the context-window fallback read it instead of the retry, background and
   * fallback fields above. Absent (every preset, and every config stored before policies): the
   * policy those fields describe (policyOf in lib/protocol/preset-policies.ts).
   */
  policy: RetryPolicySchema.optional(),
});
export type RecoveryConfig = z.infer<typeof RecoveryConfigSchema>;

/** Overrides on top of a preset: any mechanism, any field. */
export const RecoveryOverridesSchema = z
  .object({
    sdkMaxRetries: RecoveryConfigSchema.shape.sdkMaxRetries.optional(),
    retry: RetryConfigSchema.partial().strict().optional(),
    background: BackgroundRetryConfigSchema.partial().strict().optional(),
    watchdog: WatchdogConfigSchema.partial().strict().optional(),
    fallback: FallbackConfigSchema.partial().strict().optional(),
    tools: ToolRecoveryConfigSchema.partial().strict().optional(),
    context: ContextConfigSchema.partial().strict().optional(),
    compaction: CompactionConfigSchema.partial().strict().optional(),
    output: OutputRecoveryConfigSchema.partial().strict().optional(),
    cache: CacheOverridesSchema.optional(),
    /** A whole retry policy, in place of the preset's (a policy is replaced whole, never merged). */
    policy: RetryPolicySchema.optional(),
  })
  .strict();
export type RecoveryOverrides = z.infer<typeof RecoveryOverridesSchema>;

export const PresetIdSchema = z.enum(PRESET_IDS);
export type { PresetId };
