import { z } from 'zod';
import { RunConfigSchema, TakeoverSchema } from './config';
import { FaultPlanSchema } from './faults';
import { MessageSchema } from './messages';
import { RecoveryConfigSchema } from './recovery';

/**
 * The run event union (DESIGN.md §1): everything a run does is one of these, appended to
 * its log with `seq` contiguous from 0 and `ts` in the run's clock (ms since run start).
 * Field names follow the plain tracer where they overlap (run_id, iteration, ts, event,
 * input_tokens, output_tokens, usd_so_far, stop_reason, latency_ms, tool, args,
 * result_chars, is_error, reason, complete). Every other type is inferred from here.
 */

const base = {
  run_id: z.string(),
  seq: z.number().int().min(0),
  ts: z.number().min(0),
};
const turn = { ...base, iteration: z.number().int().min(0) };
const attempt = { ...turn, attempt: z.number().int().min(1) };

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

export const TerminateReasonSchema = z.enum([
  'end_turn',
  'max_iterations',
  'cost_budget',
  'aborted',
  'abandoned',
  'model_error',
  'retries_exhausted',
  'tool_halt',
  'refusal',
  'max_tokens',
  'internal_error',
  'imported',
  'context_overflow',
  /** The run used its run-time budget (budgets.maxRunMs of run clock). */
  'run_time_budget',
  /** The run made budgets.maxAttempts model requests (foreground and background). */
  'attempt_budget',
  /** On the virtual clock: no timer left and nothing running, so nothing could ever wake the run. */
  'deadlock',
  /** The server process stopped while the run was in flight; found and closed at the next start. */
  'server_restart',
  'partial_response',
]);
export type TerminateReason = z.infer<typeof TerminateReasonSchema>;

export const ToolCallStatusSchema = z.enum([
  'ok',
  'error',
  'invalid_args',
  'unknown_tool',
  'timeout',
  'short_circuit',
  'blocked',
  'disabled',
  'refused_truncated',
]);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

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

/** The task verdict: the scenario's check on the final workspace, apart from how the loop ended. */
export const TaskVerdictSchema = z.enum(['done', 'not_done', 'not_checkable']);
export type TaskVerdict = z.infer<typeof TaskVerdictSchema>;

export const RunEventSchema = z.discriminatedUnion('event', [
  z.object({
    ...base,
    event: z.literal('run_start'),
    config: RunConfigSchema,
    recovery: RecoveryConfigSchema,
    scenario: z.object({ id: z.string(), title: z.string(), task: z.string() }),
    tools: z.array(z.string()),
    vendor: z.string(),
    model: z.string(),
    clock: z.enum(['real', 'virtual']),
    time_scale: z.number(),
  }),
  z.object({ ...turn, event: z.literal('iteration_start') }),
  z.object({
    ...attempt,
    event: z.literal('model_request'),
    request_no: z.number().int().min(1),
    vendor: z.string(),
    model: z.string(),
    message_count: z.number().int(),
    input_tokens_est: z.number().int(),
    max_tokens: z.number().int(),
    background: z.boolean(),
    /** The request body as sent to the vendor (no key, no headers). */
    body: z.unknown().optional(),
  }),
  z.object({
    ...attempt,
    event: z.literal('stream_open'),
    response_id: z.string(),
    model: z.string(),
    ttfb_ms: z.number(),
  }),
  z.object({
    ...attempt,
    event: z.literal('content_delta'),
    index: z.number().int(),
    kind: z.enum(['text', 'thinking', 'tool_args']),
    text: z.string(),
    call_id: z.string().optional(),
    tool: z.string().optional(),
  }),
  z.object({
    ...turn,
    event: z.literal('llm_call'),
    attempt: z.number().int().min(1).optional(),
    vendor: z.string().optional(),
    model: z.string().optional(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
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
  }),
  z.object({
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
  }),
  z.object({
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
  }),
  z.object({
    ...attempt,
    event: z.literal('watchdog_armed'),
    window_ms: z.number(),
  }),
  z.object({
    ...attempt,
    event: z.literal('watchdog_fired'),
    window_ms: z.number(),
    outcome: z.enum(['empty', 'partial']),
  }),
  z.object({
    ...turn,
    event: z.literal('fallback'),
    from_model: z.string(),
    to_model: z.string(),
    reason: z.string(),
  }),
  z.object({
    ...base,
    event: z.literal('swap'),
    /** The turn about to start on the new vendor. */
    iteration: z.number().int().min(0),
    from_vendor: z.string(),
    from_model: z.string(),
    to_vendor: z.string(),
    to_model: z.string(),
    /** The dialect the new vendor speaks (lib/dialects). */
    dialect: z.string(),
    /** fork: a forked run continuing on another vendor or model than its parent was on at that turn. */
    cause: z.enum(['control', 'scheduled', 'fallback', 'fork']),
    /** Why, in words (e.g. "3 consecutive overloaded errors"). */
    reason: z.string().optional(),
    handling: TakeoverSchema,
    /** The new model's context window when known. */
    context_window: z.number().int().optional(),
  }),
  z.object({
    ...base,
    /**
     * This run is a fork: it starts from `parent_run_id`'s trajectory up to and including
     * `turn`. The `copied_events` events after this one are the parent's, copied with their
     * ts (run_id and seq are this run's); the live run goes on from turn + 1.
     */
    event: z.literal('forked_from'),
    parent_run_id: z.string(),
    turn: z.number().int().min(1),
    /** The vendor and model the parent was on at that turn. */
    from_vendor: z.string(),
    from_model: z.string(),
    copied_events: z.number().int().min(0),
    /** Messages of the trajectory carried over (task, replies, tool results, prompts). */
    messages: z.number().int().min(0),
    /** What the copied turns cost the parent; counted in this run's totals as inherited. */
    inherited: z.object({ usd: z.number(), input_tokens: z.number().int(), output_tokens: z.number().int() }),
    /** Workspace edits replayed from the copied tool calls, and any whose result differed from the parent's. */
    workspace: z.object({ replayed: z.number().int().min(0), diverged: z.array(z.string()) }),
  }),
  z.object({
    ...base,
    event: z.literal('takeover_report'),
    iteration: z.number().int().min(0),
    vendor: z.string(),
    model: z.string(),
    dialect: z.string(),
    /** What rendering the history for the new vendor converted, and what it dropped. */
    converted: z.array(z.string()),
    dropped: z.array(z.object({ kind: z.string(), detail: z.string() })),
    handling: TakeoverSchema,
    /**
     * The same request rendered naively (history as it was, credentials included) and
     * validated by the strict simulated vendor: its real verdict. Absent for real vendors.
     */
    naive: z
      .object({
        accepted: z.boolean(),
        status: z.number().int().optional(),
        type: z.string().optional(),
        message: z.string().optional(),
        body: z.unknown().optional(),
      })
      .optional(),
  }),
  z.object({
    ...base,
    event: z.literal('fault_injected'),
    iteration: z.number().int().min(0).optional(),
    request_no: z.number().int().optional(),
    rule_id: z.string(),
    action: z.string(),
    label: z.string(),
  }),
  z.object({
    ...base,
    event: z.literal('keepalive'),
    iteration: z.number().int().min(0).optional(),
    /** The fault wrapper's request count (as in fault_injected). */
    request_no: z.number().int(),
    /** Keepalives received on this request so far (coalesced: at most one event a second of run time). */
    count: z.number().int().min(1),
    /** An Anthropic `ping` event or an SSE comment line (`: keepalive`). */
    style: z.enum(['ping', 'comment']),
  }),
  z.object({
    ...base,
    event: z.literal('control'),
    iteration: z.number().int().min(0).optional(),
    action: z.enum(['abort', 'set_faults', 'pause', 'resume', 'compact']),
    detail: z.string().optional(),
    faults: FaultPlanSchema.optional(),
  }),
  z.object({
    ...turn,
    event: z.literal('tool_start'),
    call_id: z.string(),
    tool: z.string(),
    args: z.unknown(),
  }),
  z.object({
    ...turn,
    event: z.literal('tool_call'),
    call_id: z.string().optional(),
    tool: z.string(),
    args: z.unknown(),
    result: z.string().optional(),
    result_chars: z.number().int(),
    is_error: z.boolean(),
    latency_ms: z.number(),
    status: ToolCallStatusSchema.optional(),
    truncated_chars: z.number().int().optional(),
    /** The safe executor's failure budget left for this tool after the call. */
    budget_left: z.number().int().optional(),
  }),
  z.object({
    ...turn,
    event: z.literal('tool_guard'),
    tool: z.string(),
    kind: z.enum(['warning', 'blocked', 'short_circuit', 'disabled', 'halt']),
    reason: z.string(),
    consecutive_failures: z.number().int().optional(),
    budget_left: z.number().int().optional(),
  }),
  z.object({
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
  }),
  z.object({
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
    stubbed: z.array(z.object({ call_id: z.string(), tool: z.string(), chars: z.number().int(), iteration: z.number().int() })),
    summary: z.string().optional(),
    reason: z.string(),
    /** Which overflow recovery of the step this rung belongs to. */
    recovery_attempt: z.number().int().min(1).optional(),
  }),
  z.object({
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
  }),
  z.object({
    ...turn,
    event: z.literal('context_recovered'),
    /** Overflow recoveries this step used; the step's retry budget starts over. */
    recovery_attempts: z.number().int().min(1),
    tokens_est: z.number().int(),
  }),
  z.object({
    ...base,
    event: z.literal('breaker'),
    iteration: z.number().int().min(0).optional(),
    state: BreakerStateSchema,
    consecutive_failures: z.number().int().min(0),
    /** While open: the run time at which the next summary call may probe. */
    reopen_at: z.number().optional(),
    reason: z.string(),
  }),
  z.object({
    ...turn,
    event: z.literal('output_recovery'),
    /**
     * escalate: resend the same request with a bigger cap, the cut output dropped; continue:
     * keep it and ask the model to go on; exhausted: no continuation left, the run ends;
     * refuse_truncated: tool calls cut by the cap were refused; continue_partial /
     * stop_partial: what the loop did after a Partial stream.
     */
    action: z.enum(['escalate', 'continue', 'exhausted', 'refuse_truncated', 'continue_partial', 'stop_partial']),
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
  }),
  z.object({
    ...base,
    event: z.literal('run_title'),
    iteration: z.number().int().min(0).optional(),
    /** A short title from a background call after the work is done. */
    title: z.string(),
  }),
  z.object({
    ...base,
    event: z.literal('task_verdict'),
    iteration: z.number().int().min(0).optional(),
    /**
     * Did the work get done, apart from how the loop ended: the scenario's own check run on the
     * final workspace. not_checkable: the check could not give an answer (stopped by its sandbox).
     */
    verdict: TaskVerdictSchema,
    /** What the check ran (e.g. "test/slugify.test.js"). */
    check: z.string(),
    /** The check's report, or why there is no answer. */
    detail: z.string(),
  }),
  z.object({
    ...base,
    event: z.literal('log'),
    iteration: z.number().int().min(0).optional(),
    level: z.enum(['info', 'warn', 'error']),
    message: z.string(),
  }),
  z.object({
    ...base,
    event: z.literal('storage_error'),
    iteration: z.number().int().min(0).optional(),
    /** The type of the event the store could not encode; this event takes its seq. */
    replaces: z.string(),
    /** Why it could not be stored, and what was lost. */
    message: z.string(),
  }),
  z.object({
    ...base,
    event: z.literal('terminate'),
    iteration: z.number().int().min(0).optional(),
    reason: TerminateReasonSchema,
    complete: z.boolean(),
    message: z.string().optional(),
    usd_so_far: z.number(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
  }),
]);

export type RunEvent = z.infer<typeof RunEventSchema>;
export type RunEventType = RunEvent['event'];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { event: T }>;

/** An event before the log stamps it with run_id, seq and ts. */
export type EventBody<T extends RunEvent = RunEvent> = T extends RunEvent
  ? Omit<T, 'run_id' | 'seq' | 'ts'>
  : never;

/**
 * Parses one event at the edge without throwing: the browser skips an event it does not
 * know rather than crashing.
 */
export function safeParseEvent(value: unknown): { ok: true; event: RunEvent } | { ok: false; error: string } {
  const result = RunEventSchema.safeParse(value);
  if (result.success) return { ok: true, event: result.data };
  return { ok: false, error: result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
}

/** Exhaustiveness check for switches over the event union. */
export function checkNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
