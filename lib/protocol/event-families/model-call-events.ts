import { z } from 'zod';
import { MessageSchema } from '../messages';
import { base, turn, attempt } from './fields';

/**
 * One model call's events: the request, the stream opening and its deltas, the settled call or
 * its classified error, the retry wait, the stream watchdog, the fallback model, and what the
 * transport did beneath the SDK (injected faults, keepalives).
 */

export const ErrorCategorySchema = z.enum([
  'network',
  'authentication',
  'authorization',
  'rate_limit',
  'overloaded',
  'timeout',
  'context_length',
  'invalid_input',
  'parse',
  'tool',
  'state',
  'internal',
  'unknown',
]);
export type ErrorCategory = z.infer<typeof ErrorCategorySchema>;

export const ModelRequestEventSchema = z.object({
  ...attempt,
  event: z.literal('model_request'),
  request_no: z.number().int().min(1),
  vendor: z.string(),
  model: z.string(),
  message_count: z.number().int(),
  input_tokens_est: z.number().int(),
  max_tokens: z.number().int(),
  /** The configured output cap, present when the model's own output limit lowered `max_tokens` below it. */
  max_tokens_configured: z.number().int().optional(),
  /** Why `max_tokens` is not the configured cap, in words. */
  max_tokens_why: z.string().optional(),
  background: z.boolean(),
  /** The request body as sent to the vendor (no key, no headers). */
  body: z.unknown().optional(),
});

export const StreamOpenEventSchema = z.object({
  ...attempt,
  event: z.literal('stream_open'),
  response_id: z.string(),
  model: z.string(),
  ttfb_ms: z.number(),
});

export const ContentDeltaEventSchema = z.object({
  ...attempt,
  event: z.literal('content_delta'),
  index: z.number().int(),
  kind: z.enum(['text', 'thinking', 'tool_args']),
  text: z.string(),
  call_id: z.string().optional(),
  tool: z.string().optional(),
});

export const LlmCallEventSchema = z.object({
  ...turn,
  event: z.literal('llm_call'),
  attempt: z.number().int().min(1).optional(),
  vendor: z.string().optional(),
  model: z.string().optional(),
  /** The whole prompt, the part the vendor served from its prompt cache included. */
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /**
   * The vendor sent no output count (a Partial: the stream was cut before its usage), so
   * output_tokens is what arrived, counted with the project's one tokenizer.
   */
  output_tokens_counted: z.literal(true).optional(),
  /** Of input_tokens, what the vendor reported reading from its prompt cache (absent: it reported no cache). */
  cache_read_tokens: z.number().int().min(0).optional(),
  /** Of input_tokens, what the vendor reported writing to its prompt cache (Anthropic's cache_creation_input_tokens). */
  cache_write_tokens: z.number().int().min(0).optional(),
  /** What the cache saved on this call at the model's cache prices: the cost as plain input less `usd`'s input part (negative when a write cost more). */
  cache_saved_usd: z.number().optional(),
  usd: z.number().optional(),
  usd_so_far: z.number(),
  stop_reason: z.string(),
  vendor_stop_reason: z.string().optional(),
  latency_ms: z.number(),
  /** Kept content of a response cut short (the watchdog's Partial outcome). */
  partial: z.boolean().optional(),
  message: MessageSchema.optional(),
  /** An auxiliary call (title, summary): counted in the totals, not a turn of the conversation. */
  background: z.boolean().optional(),
  /** What an auxiliary call was for ("title", "summary"). */
  purpose: z.string().optional(),
});

export const ModelErrorEventSchema = z.object({
  ...attempt,
  event: z.literal('model_error'),
  message: z.string(),
  status: z.number().int().optional(),
  vendor_type: z.string().optional(),
  category: ErrorCategorySchema,
  /** Which classifier rule decided the category. */
  rule: z.string(),
  retryable: z.boolean(),
  /** Did any content arrive before the failure? */
  partial: z.boolean(),
});

/**
 * The backoff formula as computed for one retry: min(base·2ⁿ, cap) × the jitter drawn. `formula`
 * is the same in words, written where the wait is computed ("1000 × 2² = 4000, cap 60000, jitter ×0.94 → 3760 ms").
 */
export const BackoffFormulaSchema = z.object({
  base_ms: z.number(),
  /** n in base·2ⁿ: the retries already spent on this call. */
  exponent: z.number().int().min(0),
  /** base·2ⁿ, before the cap. */
  exponential_ms: z.number(),
  cap_ms: z.number(),
  jitter_mode: z.enum(['symmetric', 'additive']),
  jitter_ratio: z.number(),
  /** The jitter drawn: the factor the capped delay was multiplied by. */
  jitter_factor: z.number(),
  /** min(base·2ⁿ, cap) × jitter_factor, rounded: computed_delay_ms. */
  result_ms: z.number(),
  formula: z.string(),
});

/**
 * The row of the retry policy that decided a retry or its refusal (lib/protocol/retry-policy.ts):
 * the kind of error it is the row for, the account's rule, the retries this row allows one
 * call, those spent on the call after the decision and those left, and where the wait came from.
 */
export const PolicyRowFieldSchema = z.object({
  /** The row: a kind of error ('spent_quota' beside the rate limit), or 'context_length', which has none. */
  row: z.string(),
  /** The account's rule, shortly ("exclusion (CodeSmith)"). */
  rule: z.string(),
  budget: z.number().int().min(0),
  used: z.number().int().min(0),
  left: z.number().int().min(0),
  /**
   * `row`: the row's own backoff; `account`: the account's; `retry_after`: the server's
   * Retry-After, honoured; `immediate`: at once (an Empty stream, a context-window move); `none`: no retry.
   */
  backoff_source: z.enum(['row', 'account', 'retry_after', 'immediate', 'none']),
});
export type PolicyRowField = z.infer<typeof PolicyRowFieldSchema>;

export const RetryScheduledEventSchema = z.object({
  ...attempt,
  event: z.literal('retry_scheduled'),
  /** The attempt that will follow the wait. */
  next_attempt: z.number().int(),
  max_attempts: z.number().int(),
  category: ErrorCategorySchema,
  rung: z.enum(['silent_retry', 'degrade', 'surface']),
  computed_delay_ms: z.number(),
  retry_after_ms: z.number().optional(),
  wait_ms: z.number(),
  reason: z.string(),
  /** The retry account the retry is booked on (each keeps its own budget). */
  account: z.enum(['foreground', 'background', 'context']).optional(),
  /** How computed_delay_ms was reached (absent for a retry at once, and in logs written before it existed). */
  backoff: BackoffFormulaSchema.optional(),
  /** `fixed`: CodeSmith's engine layer decided the wait (a rate limit sleeps a fixed delay, anything else at once), not backoff. */
  backoff_mode: z.literal('fixed').optional(),
  /** The policy row that decided (absent in logs written before retry policies). */
  policy_row: PolicyRowFieldSchema.optional(),
});

/** The rule that made a call stop retrying, written by the code that decided. */
export const RetryDeclinedRuleSchema = z.enum([
  /** Content had arrived before the stream failed: it is kept, not requested again. */
  'partial_kept',
  /** The account's retries are switched off in this configuration. */
  'retry_off',
  /** The classifier says the same request would fail the same way. */
  'not_retryable',
  /** Retryable in general, but this account does not retry this category. */
  'category_not_retried',
  /** Every retry the account allows has been spent. */
  'budget_spent',
  /** Too many stream errors in a row (the watchdog's stream error cap). */
  'stream_error_cap',
]);
export type RetryDeclinedRule = z.infer<typeof RetryDeclinedRuleSchema>;

/** What follows a declined retry, decided by the caller that gave up. */
export const RetryDeclinedNextSchema = z.enum([
  /** The content that arrived becomes the call's answer (the output cap decides what the loop does with it). */
  'keep_partial',
  /** The error goes up: the turn fails and the run ends with it. */
  'surface',
  /** The context channel takes the overflow (its waterfall or reactive compact). */
  'context_channel',
  /** An auxiliary call is given up; the run goes on without its result. */
  'skip_call',
]);
export type RetryDeclinedNext = z.infer<typeof RetryDeclinedNextSchema>;

/**
 * The retry decision's other side: a failed attempt that is not followed by another. Every
 * failed attempt is followed by exactly one `retry_scheduled` or one `retry_declined`.
 */
export const RetryDeclinedEventSchema = z.object({
  ...attempt,
  event: z.literal('retry_declined'),
  account: z.enum(['foreground', 'background', 'context']),
  category: ErrorCategorySchema,
  rule: RetryDeclinedRuleSchema,
  /** Attempts made on this call, the failed one included, and the most the account allows. */
  attempts: z.number().int().min(1),
  max_attempts: z.number().int().min(1),
  next: RetryDeclinedNextSchema,
  /** The decision in words, written where it was made. */
  why: z.string(),
  /** The policy row that refused (absent for a kept Partial, and in logs written before retry policies). */
  policy_row: PolicyRowFieldSchema.optional(),
});

export const WatchdogArmedEventSchema = z.object({
  ...attempt,
  event: z.literal('watchdog_armed'),
  window_ms: z.number(),
});

export const WatchdogFiredEventSchema = z.object({
  ...attempt,
  event: z.literal('watchdog_fired'),
  window_ms: z.number(),
  outcome: z.enum(['empty', 'partial']),
});

export const FallbackEventSchema = z.object({
  ...turn,
  event: z.literal('fallback'),
  from_model: z.string(),
  to_model: z.string(),
  reason: z.string(),
  /**
   * What moved the run (absent: consecutive overloads, as every log before retry policies):
   * `cooldown` — the model in force was cooled down, or a cooled model's cooldown ended;
   * `context_window` — a context overflow, and the policy's larger-window model takes the run
   * before anything is compacted.
   */
  cause: z.enum(['overloads', 'cooldown', 'context_window']).optional(),
});

/**
 * The retry policy's per-model cooldown (lib/engine/retry/fallback-chain.ts), on the run's
 * clock: `start` — a model failed N attempts in a row and is skipped until `until_ms`; `skip` —
 * the chain passed over a model still cooling down; `end` — its cooldown is over and it takes
 * the call back.
 */
export const ModelCooldownEventSchema = z.object({
  ...turn,
  event: z.literal('model_cooldown'),
  phase: z.enum(['start', 'skip', 'end']),
  model: z.string(),
  /** Run-clock time the cooldown ends (ms since the run started). */
  until_ms: z.number(),
  reason: z.string(),
});

export const FaultInjectedEventSchema = z.object({
  ...base,
  event: z.literal('fault_injected'),
  iteration: z.number().int().min(0).optional(),
  request_no: z.number().int().optional(),
  rule_id: z.string(),
  action: z.string(),
  label: z.string(),
});

export const KeepaliveEventSchema = z.object({
  ...base,
  event: z.literal('keepalive'),
  iteration: z.number().int().min(0).optional(),
  /** The fault wrapper's request count (as in fault_injected). */
  request_no: z.number().int(),
  /** Keepalives received on this request so far (coalesced: at most one event a second of run time). */
  count: z.number().int().min(1),
  /** An Anthropic `ping` event or an SSE comment line (`: keepalive`). */
  style: z.enum(['ping', 'comment']),
});

/**
 * The vendor SDK's own retry (its `maxRetries`, beneath the loop's ladder): the SDK decided to
 * send a failed HTTP request again, and this is that request. Written by the run's transport
 * just beneath the SDK, which sees each request the SDK sends (its retry count header) and makes
 * the SDK's wait on the run clock. The loop's attempt stays one attempt until the SDK gives up.
 */
export const SdkRetryEventSchema = z.object({
  ...base,
  event: z.literal('sdk_retry'),
  iteration: z.number().int().min(0).optional(),
  /** This HTTP request's number (the fault wrapper's count, as in fault_injected). */
  request_no: z.number().int(),
  /** The SDK's retry count on this request (1 = its first retry) and the most it makes. */
  retry: z.number().int().min(1),
  max_retries: z.number().int().min(1),
  /** What the request it retries got: an HTTP status, or none (a connection error). */
  after_status: z.number().int().optional(),
  /** The SDK's wait before this request, on the run clock; 0 after a connection error (the SDK then waits in wall time). */
  wait_ms: z.number(),
  /** What the server asked for (Retry-After), when it did. */
  retry_after_ms: z.number().optional(),
  /** How the wait was reached, in words: the SDK's min(500·2ⁿ, 8000) × (1 − 0–25 %), or the server's Retry-After. */
  formula: z.string(),
  background: z.boolean(),
  /** The decision in words, as the UI shows it. */
  why: z.string(),
});
