import { z } from 'zod';
import {
  RunStartEventSchema,
  IterationStartEventSchema,
  ControlEventSchema,
  RunTitleEventSchema,
  ResumedAfterRestartEventSchema,
  TaskVerdictEventSchema,
  LogEventSchema,
  StorageErrorEventSchema,
  TerminateEventSchema,
} from './event-families/run-events';
import {
  ModelRequestEventSchema,
  StreamOpenEventSchema,
  ContentDeltaEventSchema,
  LlmCallEventSchema,
  ModelErrorEventSchema,
  RetryScheduledEventSchema,
  RetryDeclinedEventSchema,
  WatchdogArmedEventSchema,
  WatchdogFiredEventSchema,
  FallbackEventSchema,
  ModelCooldownEventSchema,
  FaultInjectedEventSchema,
  KeepaliveEventSchema,
  SdkRetryEventSchema,
} from './event-families/model-call-events';
import { OffRecordingEventSchema } from './event-families/replay-events';
import {
  SwapEventSchema,
  ForkedFromEventSchema,
  TakeoverReportEventSchema,
  TakeoverOutcomeEventSchema,
  type SentBodySchema,
} from './event-families/takeover-events';
import {
  ToolStartEventSchema,
  ToolCallEventSchema,
  ToolGuardEventSchema,
  ArgRepairEventSchema,
} from './event-families/tool-events';
import { MechanismDecisionEventSchema } from './event-families/mechanism-events';
import { ForkEditEventSchema } from './event-families/fork-events';
import { BREAKABLE_EVENTS } from './pause';
import {
  PausedEventSchema,
  ResumedEventSchema,
  ToolApprovalEventSchema,
} from './event-families/pause-events';
import { MODULE_EVENT_SCHEMAS } from '@/lib/mechanisms/modules/protocol';
import {
  ContextSentEventSchema,
  CompactionEventSchema,
  ContextOverflowEventSchema,
  ContextRecoveredEventSchema,
  BreakerEventSchema,
  OutputRecoveryEventSchema,
} from './event-families/context-events';

export {
  TerminateReasonSchema,
  type TerminateReason,
  TaskVerdictSchema,
  type TaskVerdict,
} from './event-families/run-events';
export {
  ErrorCategorySchema,
  type ErrorCategory,
  RetryDeclinedRuleSchema,
  type RetryDeclinedRule,
  RetryDeclinedNextSchema,
  type RetryDeclinedNext,
  PolicyRowFieldSchema,
  type PolicyRowField,
} from './event-families/model-call-events';
export { SentBodySchema, SENT_BODY_MAX_CHARS } from './event-families/takeover-events';
export { HookPointSchema } from './event-families/mechanism-events';
export type SentBody = z.infer<typeof SentBodySchema>;
export {
  ToolCallStatusSchema,
  type ToolCallStatus,
  ArgRepairRungSchema,
  type ArgRepairRung,
} from './event-families/tool-events';
export {
  SentMessageSchema,
  type SentMessage,
  CompactionStepSchema,
  type CompactionStep,
  BreakerStateSchema,
  type BreakerState,
} from './event-families/context-events';

/**
 * The run event union: everything a run does is one of these, appended to
 * its log with `seq` contiguous from 0 and `ts` in the run's clock (ms since run start).
 * Field names follow the plain tracer where they overlap (run_id, iteration, ts, event,
 * input_tokens, output_tokens, usd_so_far, stop_reason, latency_ms, tool, args,
 * result_chars, is_error, reason, complete). Every other type is inferred from here.
 */
export const RunEventSchema = z.discriminatedUnion('event', [
  RunStartEventSchema,
  IterationStartEventSchema,
  ModelRequestEventSchema,
  StreamOpenEventSchema,
  ContentDeltaEventSchema,
  LlmCallEventSchema,
  ModelErrorEventSchema,
  RetryScheduledEventSchema,
  RetryDeclinedEventSchema,
  WatchdogArmedEventSchema,
  WatchdogFiredEventSchema,
  FallbackEventSchema,
  ModelCooldownEventSchema,
  SwapEventSchema,
  ForkedFromEventSchema,
  ForkEditEventSchema,
  TakeoverReportEventSchema,
  TakeoverOutcomeEventSchema,
  FaultInjectedEventSchema,
  KeepaliveEventSchema,
  SdkRetryEventSchema,
  OffRecordingEventSchema,
  ControlEventSchema,
  PausedEventSchema,
  ResumedEventSchema,
  ToolApprovalEventSchema,
  ToolStartEventSchema,
  ToolCallEventSchema,
  ToolGuardEventSchema,
  ArgRepairEventSchema,
  // The mechanism modules' events (lib/mechanisms/<name>/protocol.ts): dangling_calls, tool_batch.
  ...MODULE_EVENT_SCHEMAS,
  MechanismDecisionEventSchema,
  ContextSentEventSchema,
  CompactionEventSchema,
  ContextOverflowEventSchema,
  ContextRecoveredEventSchema,
  BreakerEventSchema,
  OutputRecoveryEventSchema,
  RunTitleEventSchema,
  ResumedAfterRestartEventSchema,
  TaskVerdictEventSchema,
  LogEventSchema,
  StorageErrorEventSchema,
  TerminateEventSchema,
]);

export type RunEvent = z.infer<typeof RunEventSchema>;
export type RunEventType = RunEvent['event'];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { event: T }>;

/** Every event kind a breakpoint may name is one of the union's (checked here: config cannot import the union). */
export const BREAKABLE_EVENT_KINDS: readonly RunEventType[] = BREAKABLE_EVENTS;

/** An event before the log stamps it with run_id, seq and ts. */
export type EventBody<T extends RunEvent = RunEvent> = T extends RunEvent
  ? Omit<T, 'run_id' | 'seq' | 'ts'>
  : never;

/**
 * Parses one event at the edge without throwing: the browser skips an event it does not
 * know rather than crashing.
 */
/** An event checked against the union: the event, or what did not match. */
export type CheckedEvent = { ok: true; event: RunEvent } | { ok: false; error: string };

export function safeParseEvent(value: unknown): CheckedEvent {
  const result = RunEventSchema.safeParse(value);
  if (result.success) return { ok: true, event: result.data };
  return { ok: false, error: result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
}

export { checkNever } from './check-never';
