import type {
  ClockKind,
  EventOf,
  FaultPlan,
  RecoveryConfig,
  RunConfig,
  RunTotals,
  TaskVerdict,
  TerminateReason,
} from '@/lib/protocol';
import { NO_TOTALS } from '@/lib/protocol/run-totals';
import type { HiddenTestsNote } from './explain/describe-verdict';
import { initialContextView, type ContextViewState } from './context-view-state';
import type { SwapView } from './fold-takeover';
import type { TurnView } from './turn-view';

export type * from './attempt-view';
export type * from './turn-view';

/**
 * The browser's view of one run: everything the pages draw, folded from the event log by
 * `reduceRunEvent`. Updated with structural sharing: an event replaces only the objects on
 * its path (state → turns → turn → attempt), so selectors of untouched slices keep their
 * references and their components do not re-render.
 */

export type RunStatus = 'idle' | 'running' | 'waiting' | 'recovering' | 'done' | 'failed' | 'aborted';

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
  /** Shipped tests, by name, that did not run (missingTestsNote). */
  missing?: { label: string; title: string };
  /** The hidden tests the verdict ran: how many, and which failed (hiddenTestsNote). */
  hidden?: HiddenTestsNote;
}

export interface TerminateView {
  ts: number;
  seq: number;
  reason: TerminateReason;
  complete: boolean;
  message?: string;
}

/** An MCP server as its client's last decision about it left it (lib/tools/mcp/server-client.ts writes them). */
export interface McpServerView {
  decision: string;
  next: string;
  why: string;
  seq: number;
  /** Decisions written about it so far. */
  decisions: number;
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
  clock: ClockKind;
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
  /** A run's MCP servers, by name: the last decision its client wrote about each (mechanism `mcp:<name>`), in its own words. */
  mcpServers?: Readonly<Record<string, McpServerView>>;
  /** The context channel: gauge samples, compaction steps, overflow recoveries, the breaker. */
  context: ContextViewState;
  verdict?: VerdictView;
  terminate?: TerminateView;
  /** A forked run: its parent and the turns copied from it (events seq ≤ lastCopiedSeq). */
  forkedFrom?: ForkedFromView;
  /** The run is paused now: the paused event's own words (absent once it goes on). */
  pause?: PauseView;
}

/** Where a paused run stands and why, as its paused event says (the pause bar shows it). */
export interface PauseView {
  seq: number;
  ts: number;
  trigger: EventOf<'paused'>['trigger'];
  reason: string;
  at: string;
  next: string;
  clock: EventOf<'paused'>['clock'];
  /** A call waiting for approval, with the arguments the model wrote. */
  call?: { id: string; tool: string; args: unknown };
  timeoutMs?: number;
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
  /** Where the fork took up the parent's fault plan, in the event's words (absent in older forks). */
  faults?: string;
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
