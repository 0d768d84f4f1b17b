import { z } from 'zod';
import { base, turn } from './fields';

/**
 * The context channel and the output cap: what each request sent, the compaction steps,
 * overflow and its recovery, the summary breaker, and what the loop did about a cut response.
 */

/**
 * One message of a request as the vendor received it, by reference to the log where it is
 * unchanged (the log stays the source of truth; the event stays small): `assistant` is the
 * kept reply of that iteration, `results` its tool results (some sent as stubs), `text` a
 * text message carried in full (the task, a continuation prompt, a summary, a trim note).
 */
export const SentMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('assistant'), iteration: z.number().int().min(0), tokens: z.number().int() }),
  z.object({
    kind: z.literal('results'),
    iteration: z.number().int().min(0),
    tokens: z.number().int(),
    /** Results sent as a stub instead of their content, and since which iteration. */
    stubs: z.array(z.object({ call_id: z.string(), chars: z.number().int(), since: z.number().int() })),
  }),
  z.object({
    kind: z.literal('text'),
    role: z.enum(['user', 'assistant']),
    origin: z.enum(['log', 'summary', 'trim_note']),
    iteration: z.number().int().min(0),
    tokens: z.number().int(),
    text: z.string(),
  }),
]);
export type SentMessage = z.infer<typeof SentMessageSchema>;

export const CompactionStepSchema = z.enum(['old_results', 'micro_compact', 'summary', 'hard_trim']);
export type CompactionStep = z.infer<typeof CompactionStepSchema>;

export const BreakerStateSchema = z.enum(['closed', 'open', 'half_open']);
export type BreakerState = z.infer<typeof BreakerStateSchema>;

export const ContextSentEventSchema = z.object({
  ...turn,
  event: z.literal('context_sent'),
  /** Estimated size of the request (messages, system and tools), scaled by the vendor's last report. */
  tokens_est: z.number().int(),
  window: z.number().int(),
  /** Where proactive compaction starts (and what the overflow rungs aim below). */
  threshold: z.number().int(),
  /** Messages in the full log conversation (what would be sent with no compaction). */
  log_messages: z.number().int(),
  messages: z.array(SentMessageSchema),
});

export const CompactionEventSchema = z.object({
  ...turn,
  event: z.literal('compaction'),
  step: CompactionStepSchema,
  /** routine: old results aging out; proactive: near the threshold; overflow: a waterfall rung; manual: Compact now. */
  trigger: z.enum(['routine', 'proactive', 'overflow', 'manual']),
  ok: z.boolean(),
  tokens_before: z.number().int(),
  tokens_after: z.number().int(),
  messages_before: z.number().int(),
  messages_after: z.number().int(),
  /** Tool results that became stubs in this step. */
  stubbed: z.array(
    z.object({ call_id: z.string(), tool: z.string(), chars: z.number().int(), iteration: z.number().int() }),
  ),
  summary: z.string().optional(),
  reason: z.string(),
  /** Which overflow recovery of the step this rung belongs to. */
  recovery_attempt: z.number().int().min(1).optional(),
  /**
   * With prompt caching on, when the step changed messages the last request sent: how many of
   * them still open the next request unchanged. The vendor's cached prefix ends there at most.
   */
  cache_kept_messages: z.number().int().min(0).optional(),
  /**
   * The cache-protection floor decided this summary step (`cache.protectionFloorTokens`): the last
   * request read `cached_tokens` from the vendor's cache, at least `floor_tokens`. held_back: the
   * summary did not run (a proactive one; a forced one with `cache.forcedBypassesFloor` off);
   * bypassed: the overflow waterfall's forced compaction ran anyway.
   */
  cache_floor: z
    .object({
      decision: z.enum(['held_back', 'bypassed']),
      cached_tokens: z.number().int().min(0),
      floor_tokens: z.number().int().min(0),
    })
    .optional(),
});

export const ContextOverflowEventSchema = z.object({
  ...turn,
  event: z.literal('context_overflow'),
  /** before_stream: an error before the response; in_stream: after it opened; stop_reason: the window cut the output. */
  source: z.enum(['before_stream', 'in_stream', 'stop_reason']),
  message: z.string(),
  recovery_attempt: z.number().int().min(1),
  budget: z.number().int(),
  /** recovering: the waterfall runs; exhausted: the budget is spent and the run ends. */
  outcome: z.enum(['recovering', 'exhausted']),
  tokens_est: z.number().int(),
});

export const ContextRecoveredEventSchema = z.object({
  ...turn,
  event: z.literal('context_recovered'),
  /** Overflow recoveries this step used; the step's retry budget starts over. */
  recovery_attempts: z.number().int().min(1),
  tokens_est: z.number().int(),
});

export const BreakerEventSchema = z.object({
  ...base,
  event: z.literal('breaker'),
  iteration: z.number().int().min(0).optional(),
  state: BreakerStateSchema,
  consecutive_failures: z.number().int().min(0),
  /** While open: the run time at which the next summary call may probe. */
  reopen_at: z.number().optional(),
  reason: z.string(),
});

export const OutputRecoveryEventSchema = z.object({
  ...turn,
  event: z.literal('output_recovery'),
  /**
   * escalate: resend the same request with a bigger cap, the cut output dropped; continue:
   * keep it and ask the model to go on; exhausted: no continuation left, the run ends;
   * refuse_truncated: tool calls cut by the cap were refused; continue_partial /
   * stop_partial: what the loop did after a Partial stream.
   */
  action: z.enum([
    'escalate',
    'continue',
    'exhausted',
    'refuse_truncated',
    'continue_partial',
    'stop_partial',
  ]),
  /** Neutral stop reason of the cut response (max_tokens, context_window, incomplete). */
  stop_reason: z.string(),
  max_tokens: z.number().int(),
  next_max_tokens: z.number().int().optional(),
  output_tokens: z.number().int(),
  /** Does the cut output stay in the conversation? */
  kept: z.boolean(),
  continuation: z.number().int().optional(),
  max_continuations: z.number().int().optional(),
  /** The text sent to the model as the next user message. */
  prompt: z.string().optional(),
  refused: z.array(z.object({ call_id: z.string(), tool: z.string() })).optional(),
  reason: z.string(),
});
