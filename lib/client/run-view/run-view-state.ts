import type {
  ErrorCategory,
  FaultPlan,
  Message,
  RecoveryConfig,
  RetryDeclinedNext,
  RetryDeclinedRule,
  RunConfig,
  TaskVerdict,
  TerminateReason,
  ToolCallStatus,
} from '@/lib/protocol';
import type { RunTotals } from '@/lib/protocol';
import { NO_TOTALS } from '@/lib/protocol/run-totals';
import { initialContextView, type ContextViewState } from './context-view-state';
import type { SwapView } from './fold-takeover';

/**
 * The browser's view of one run: everything the pages draw, folded from the event log by
 * `reduceRunEvent`. Updated with structural sharing: an event replaces only the objects on
 * its path (state → turns → turn → attempt), so selectors of untouched slices keep their
 * references and their components do not re-render.
 */

export type RunStatus = 'idle' | 'running' | 'waiting' | 'recovering' | 'done' | 'failed' | 'aborted';

/** One content block of a streamed response, assembled from its deltas. */
export interface BlockView {
  index: number;
  kind: 'text' | 'thinking' | 'tool_args';
  text: string;
  callId?: string;
  tool?: string;
}

export interface ErrorView {
  ts: number;
  /** The model_error event (the log holds it; its "why" is read from there). */
  seq: number;
  message: string;
  status?: number;
  vendorType?: string;
  category: ErrorCategory;
  rule: string;
  retryable: boolean;
  partial: boolean;
}

export interface RetryView {
  ts: number;
  /** The retry_scheduled event. */
  seq: number;
  nextAttempt: number;
  maxAttempts: number;
  category: ErrorCategory;
  rung: 'silent_retry' | 'degrade' | 'surface';
  computedDelayMs: number;
  retryAfterMs?: number;
  waitMs: number;
  reason: string;
  /** The backoff formula as the retry function computed it ("1000 × 2² = 4000, cap 60000, jitter ×0.94 → 3760 ms"); absent for a retry at once. */
  formula?: string;
  /** Measured when the next attempt's request goes out. */
  actualWaitMs?: number;
}

/** The retry_declined event: the call stopped retrying, with the rule and what follows. */
export interface DeclinedView {
  ts: number;
  seq: number;
  rule: RetryDeclinedRule;
  next: RetryDeclinedNext;
  maxAttempts: number;
  why: string;
}

export interface WatchdogView {
  windowMs: number;
  armedTs: number;
  /** Last time content arrived (the window restarts from here). */
  lastResetTs: number;
  fired?: { ts: number; seq: number; outcome: 'empty' | 'partial' };
}

/** What llm_call reported for an attempt that produced a response. */
export interface CallResultView {
  ts: number;
  stopReason: string;
  vendorStopReason?: string;
  inputTokens: number;
  outputTokens: number;
  usd?: number;
  latencyMs: number;
  partial: boolean;
  vendor?: string;
  model?: string;
  message?: Message;
  /** What an auxiliary call was for ("title", "summary"). */
  purpose?: string;
}

/** stopped: the run ended (abort, a budget) while the attempt was still open. */
export type AttemptOutcome = 'pending' | 'streaming' | 'ok' | 'error' | 'watchdog' | 'cut' | 'stopped';

/** One HTTP request the vendor SDK retried on its own, beneath the loop (sdk_retry). */
export interface SdkRetryView {
  seq: number;
  ts: number;
  requestNo: number;
  retry: number;
  maxRetries: number;
  afterStatus?: number;
  waitMs: number;
  formula: string;
}

/** One HTTP attempt of one model call. */
export interface AttemptView {
  attempt: number;
  requestNo: number;
  vendor: string;
  model: string;
  background: boolean;
  messageCount: number;
  inputTokensEst: number;
  maxTokens: number;
  /** Why `maxTokens` is below the configured cap (the model's own limit), as the engine wrote it. */
  maxTokensWhy?: string;
  /** The request body as sent: from an imported log's request, or kept at a swap for the requests on each side of it. */
  body?: unknown;
  /** Why this attempt's body is kept: the request on one side of a swap. */
  bodyAt?: string;
  startTs: number;
  openTs?: number;
  ttfbMs?: number;
  responseId?: string;
  /** HTTP requests the vendor SDK sent again on its own inside this attempt (sdk_retry), in order. */
  sdkRetries?: readonly SdkRetryView[];
  /** Run-time spans in which content arrived (close deltas merged). */
  contentSpans: ReadonlyArray<readonly [number, number]>;
  blocks: readonly BlockView[];
  endTs?: number;
  outcome: AttemptOutcome;
  error?: ErrorView;
  retry?: RetryView;
  /** Set when the call gave up after this attempt (or kept its Partial): the decision, as the engine wrote it. */
  declined?: DeclinedView;
  watchdog?: WatchdogView;
  /** Keepalives the vendor sent on this attempt (they never reset the watchdog). */
  keepalives?: KeepaliveView;
  result?: CallResultView;
}

export interface KeepaliveView {
  /** Keepalives received so far. */
  count: number;
  style: 'ping' | 'comment';
  /** Run times of the keepalive events (coalesced: at most one a second), the latest 500. */
  ts: readonly number[];
}

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

/** Something marked on the timeline at the moment it took effect. */
export interface MarkerView {
  seq: number;
  ts: number;
  kind: 'fault' | 'control' | 'log' | 'storage' | 'swap';
  label: string;
  detail?: string;
  iteration?: number;
  level?: 'info' | 'warn' | 'error';
}

/** The scenario's check on the final workspace: was the task done, apart from how the loop ended. */
export interface VerdictView {
  ts: number;
  verdict: TaskVerdict;
  check: string;
  detail: string;
  /** The model edited the scenario's test files: which, and what the verdict ran (editedTestsNote). */
  testsNote?: string;
}

export interface TerminateView {
  ts: number;
  seq: number;
  reason: TerminateReason;
  complete: boolean;
  message?: string;
}

export interface RunViewState {
  runId?: string;
  /** Highest seq folded; events at or below it are replays and are skipped. */
  lastSeq: number;
  eventCount: number;
  skippedCount: number;
  status: RunStatus;
  reason: string;
  /** Run time of the latest event (ms). */
  clockTs: number;
  clock: 'real' | 'virtual';
  timeScale: number;
  config?: RunConfig;
  recovery?: RecoveryConfig;
  scenario?: { id: string; title: string; task: string };
  /** The run's title, from the background title call at the end. */
  title?: string;
  tools: readonly string[];
  vendor?: string;
  model?: string;
  totals: Readonly<RunTotals>;
  /**
   * Model requests this run made so far, foreground and background: what its attempt budget
   * counts. A fork's copied turns are not among them (copiedRequests).
   */
  requests: number;
  /** A fork: the requests of the parent's turns copied into this log (not this run's, not budgeted). */
  copiedRequests: number;
  /** HTTP requests the vendor SDK retried on its own (sdk_retry): each one more request than the loop's attempts. */
  sdkRetries: number;
  turns: readonly TurnView[];
  markers: readonly MarkerView[];
  /** Vendor/model changes mid-run, in order, each with its takeover report once sent. */
  swaps: readonly SwapView[];
  /** Swaps asked for and not made, in the run's own words (`log` events about a swap). */
  swapNotes: readonly SwapNoteView[];
  faults?: FaultPlan;
  disabledTools: readonly string[];
  toolBudgets: Readonly<Record<string, number>>;
  /** The context channel: gauge samples, compaction steps, overflow recoveries, the breaker. */
  context: ContextViewState;
  verdict?: VerdictView;
  terminate?: TerminateView;
  /** A forked run: its parent and the turns copied from it (events seq ≤ lastCopiedSeq). */
  forkedFrom?: ForkedFromView;
}

export interface SwapNoteView {
  seq: number;
  ts: number;
  message: string;
}

export interface ForkedFromView {
  parentRunId: string;
  turn: number;
  fromVendor: string;
  fromModel: string;
  /** The last event copied from the parent: the turns up to here are the parent's. */
  lastCopiedSeq: number;
  inherited: { usd: number; inputTokens: number; outputTokens: number };
  workspace: { replayed: number; diverged: readonly string[] };
}

export function initialRunViewState(): RunViewState {
  return {
    lastSeq: -1,
    eventCount: 0,
    skippedCount: 0,
    status: 'idle',
    reason: 'not started',
    clockTs: 0,
    clock: 'real',
    timeScale: 1,
    tools: [],
    totals: NO_TOTALS,
    requests: 0,
    copiedRequests: 0,
    sdkRetries: 0,
    turns: [],
    markers: [],
    swaps: [],
    swapNotes: [],
    disabledTools: [],
    toolBudgets: {},
    context: initialContextView(),
  };
}

/** The status word people read ("done" reads as "completed"). */
export function statusWord(status: RunStatus): string {
  return status === 'done' ? 'completed' : status;
}
