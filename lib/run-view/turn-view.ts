import type { ToolCallStatus } from '@/lib/protocol';
import type { AttemptView, CallResultView } from './attempt-view';
import type { RunViewState } from './run-view-state';

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
  /** A fork's edit of its result (fork_edit): what the model received from the fork on; `result` is what the tool returned. */
  edit?: ForkEditView & { isError: boolean };
}

/** A person's edit of the state a fork starts from, as its fork_edit event says it. */
export interface ForkEditView {
  seq: number;
  by: string;
  after: string;
  next: string;
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
  /** A fork's edit of this turn's reply text (fork_edit): what the model sees as its reply from the fork on. */
  replyEdit?: ForkEditView;
  /**
   * What mechanism modules marked on the turn's tool calls, in log order: the group a call ran
   * in (parallel-tool-calls), a call whose result never came back (interrupted-repair), …
   * Each module folds its own events into these (lib/mechanisms/<name>/view.ts).
   */
  callMarks?: readonly CallMark[];
  /** Loops run under the turn's tool calls (a sub-agent each), in the order they started. */
  nested?: readonly NestedRunView[];
}

/**
 * A loop run under one of a turn's tool calls (a sub-agent), its own events folded as a run
 * of its own; a module writes it from its events (lib/mechanisms/<name>/view.ts).
 */
export interface NestedRunView {
  /** Its id in the run (c1, c2, …), the tool call that started it and which try this is. */
  id: string;
  callId: string;
  try: number;
  task: string;
  model: string;
  /** The start's why line. */
  why: string;
  run: RunViewState;
  /** How it ended and what the parent does next, in the end event's words. */
  end?: {
    seq: number;
    outcome: string;
    next: string;
    why: string;
    reason: string;
    requests: number;
    usd: number;
    inputTokens: number;
    outputTokens: number;
  };
}

/**
 * A mechanism's mark on some of a turn's tool calls, drawn the same way for every mechanism:
 * a pill beside each call, its why line under the first, a glyph and a note on the waterfall bar.
 */
export interface CallMark {
  /** The module that wrote it. */
  mechanism: string;
  /** The event it comes from (its why line). */
  seq: number;
  ts: number;
  callIds: readonly string[];
  /** The decision in words (the pill's title). */
  why: string;
  /** The pill beside each of its calls; absent: none. */
  pill?: { tone: 'neutral' | 'compact' | 'fail'; text: string; testId: string };
  /** The why line, under the first of its calls: above the call's own (before) or below it (after). */
  whyLine: 'before' | 'after';
  /** On the waterfall: the glyph before the tool's name, a note for its title, a data attribute set on the bar. */
  bar?: { glyph: string; note: string; data: string };
}
