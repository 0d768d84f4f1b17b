import type { ToolCallStatus } from '@/lib/protocol';
import type { AttemptView, CallResultView } from './attempt-view';

/** One turn in the browser's run view: its attempts, tool calls and what the loop decided about them. */

export type ToolCallViewStatus = ToolCallStatus | 'running';

export interface ToolCallView {
  key: string;
  callId?: string;
  tool: string;
  args: unknown;
  startTs: number;
  endTs?: number;
  status: ToolCallViewStatus;
  result?: string;
  resultChars?: number;
  isError?: boolean;
  latencyMs?: number;
  truncatedChars?: number;
  /** The tool_call event that ended it. */
  seq?: number;
  /** The repair ladder's steps on this call's arguments, in order (arg_repair events). */
  repairs?: readonly RepairView[];
  /** The rungs that changed the arguments it ran with (from its tool_call); `args` is then what ran. */
  repaired?: readonly ('json' | 'coerce')[];
}

/** One rung of the argument repair ladder on a call: what it changed and what came next. */
export interface RepairView {
  /** The arg_repair event. */
  seq: number;
  ts: number;
  rung: 'json' | 'coerce';
  changes: readonly string[];
  before: string;
  after: string;
  next: 'coerce' | 'run' | 'reask';
  why: string;
}

export interface GuardView {
  ts: number;
  /** The tool_guard event. */
  seq: number;
  tool: string;
  kind: 'warning' | 'blocked' | 'short_circuit' | 'disabled' | 'halt' | 'rate_limited';
  reason: string;
  /** What happens next, when the guard's event says so. */
  next?: string;
  consecutiveFailures?: number;
  budgetLeft?: number;
}

export interface FallbackView {
  ts: number;
  seq: number;
  fromModel: string;
  toModel: string;
  reason: string;
}

/** A step of output-cap recovery in a turn (escalate, continue, refuse cut tool calls, …). */
export interface OutputStepView {
  ts: number;
  /** The output_recovery event. */
  seq: number;
  action: 'escalate' | 'continue' | 'exhausted' | 'refuse_truncated' | 'continue_partial' | 'stop_partial';
  stopReason: string;
  maxTokens: number;
  nextMaxTokens?: number;
  outputTokens: number;
  kept: boolean;
  continuation?: number;
  maxContinuations?: number;
  prompt?: string;
  refused?: ReadonlyArray<{ call_id: string; tool: string }>;
  reason: string;
}

export interface TurnView {
  iteration: number;
  startTs: number;
  /** Last event time seen in this turn. */
  lastTs: number;
  attempts: readonly AttemptView[];
  toolCalls: readonly ToolCallView[];
  guards: readonly GuardView[];
  fallbacks: readonly FallbackView[];
  /** What the loop did about a response cut by the output cap or a cut stream. */
  outputSteps: readonly OutputStepView[];
  /** The foreground response the loop kept for this turn. */
  result?: CallResultView & { attempt?: number };
  /** How the tool step grouped a turn of several calls (tool_batch events), in order. */
  batches?: readonly ToolBatchView[];
  /** Calls whose result never came back, and what the tool step did about them (dangling_calls). */
  dangling?: DanglingView;
}

/** One group of a turn's calls: run at once, or one alone, as the tool step decided. */
export interface ToolBatchView {
  seq: number;
  ts: number;
  callIds: readonly string[];
  tools: readonly string[];
  parallel: boolean;
  limit: number;
  why: string;
}

/** A turn cut between its calls and their results: the dangling calls and the repair's decision. */
export interface DanglingView {
  seq: number;
  ts: number;
  callIds: readonly string[];
  tools: readonly string[];
  repaired: boolean;
  why: string;
}
