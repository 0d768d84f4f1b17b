import type { Clock, Random } from '@/lib/clock';
import {
  type ErrorCategory,
  HookPointSchema,
  type Message,
  type RecoveryConfig,
  type RunConfig,
  type RunEvent,
  type ScorerResult,
  type StopReason,
  type TerminateReason,
  type ToolCallPart,
  type ToolResultPart,
} from '@/lib/protocol';
import type { StreamPart, ToolSpec } from '@/lib/providers/types';
import type { Emit } from './event-log';

/**
 * The mechanism port: the named points where a mechanism plugs into the loop, what each point
 * tells it, and the decision the engine acts on. The built-in mechanisms that live in their own
 * folder (lib/mechanisms/<name>/engine.ts, listed in lib/mechanisms/modules/engine.ts) and a
 * strategy loaded from a file (lib/runtime/load-strategy.ts) implement the same interface.
 *
 * The points, in the order a run meets them (HOOK_POINTS):
 *   beforeRequest   — each turn, before its model request (after control messages and swaps)
 *   onStreamPart    — each part of an attempt's stream as it arrives (watch only)
 *   onError         — an attempt failed and was classified, before the retry ladder decides
 *   onContextGrow   — the response is billed and its prompt was larger than the last one's
 *   afterResponse   — the turn's response, once the built-in output cap lets it proceed, before
 *                     it joins the history
 *   beforeToolCalls — around a tool call, before: which of the turn's calls not yet run go next,
 *                     and whether at once (asked again until every call ran or the turn stops)
 *   beforeToolCall  — each call, before it runs: whether it runs at all (refuse: the result given
 *                     instead, and the tool never runs)
 *   onToolResult    — each call's result, before it joins the history: every mechanism is asked
 *                     in turn, each handed the result as the one before left it (replace)
 *   afterToolCalls  — around a tool call, after: the turn's calls ran; what to do about those
 *                     whose result never came back, before the results join the history
 *   runTool         — a call of a tool the mechanism offers itself (ownTools), run by it in
 *                     place of the run's executor; it may run a nested loop under the run's
 *                     (a sub-agent), whose events it writes into the run's log
 *   beforeEnd       — the loop is ending, before the task verdict and terminate (watch only)
 * At one point the mechanisms are asked in registration order — the built-in modules in their
 * list's order, then the strategies in the order given — and the first one that decides
 * (returns a decision rather than undefined) is acted on; the later ones are not asked (but at
 * onToolResult, where each replacement is handed on to the next).
 *
 * Beside the points, a module may add a note to the run's system prompt (`systemNote`, read
 * once per run) and a check of its own to the task verdict (`judge`, asked once just before the
 * task_verdict event: a scorer of kind `mechanism`, and a failed one makes the task not done).
 *
 * Every decision is an event carrying its reason and what happens next: a hook that returns a
 * decision must have written one during the call, its own event or `ctx.decide(...)` (a
 * mechanism_decision event); the host (lib/engine/mechanism-host.ts) throws otherwise, so no decision
 * goes unrecorded.
 */
export const HOOK_POINTS = HookPointSchema.options;
export type HookPoint = (typeof HOOK_POINTS)[number];

/** What a hook is handed: the run's clock, the run log and the mechanism's slice of the config. */
export interface HookContext<C> {
  /** The run clock (run time, never the host's). */
  readonly clock: Pick<Clock, 'now'>;
  readonly iteration: number;
  /** The mechanism's slice of the run's recovery config. */
  readonly config: C;
  /** The run log: an event written here is stamped (seq, ts) like every other. */
  readonly emit: Emit;
  /** Writes this mechanism's decision at this point as a mechanism_decision event. */
  decide(decision: { decision: string; next: string; why: string }): RunEvent;
}

/** A decision that ends the run, with the terminate reason it ends with. */
export interface StopDecision {
  kind: 'stop';
  reason: TerminateReason;
  message: string;
}

export type BeforeRequestDecision = StopDecision;

/** Give up on the call: the error surfaces (no retry) and the run ends with it. */
export interface ErrorDecision {
  kind: 'give_up';
  message: string;
}

export type AfterResponseDecision =
  /** Go on; `truncatedRound`: the round was cut by the output cap (the tool executor refuses cut calls). */
  | { kind: 'proceed'; truncatedRound: boolean }
  /** Drop the response and send the same request again; `maxTokens`: the output cap from now on. */
  | { kind: 'resend'; maxTokens?: number }
  /** Keep the response and send `prompt` as the next user message. */
  | { kind: 'continue'; prompt: string }
  | StopDecision;

export type ContextGrowDecision = StopDecision;

/** The next calls to run: at once when `parallel` (each a call not yet run, in call order). */
export interface ToolGroupDecision {
  kind: 'run';
  calls: ToolCallPart[];
  parallel: boolean;
}

/** A call that does not run: `result` is what the model gets instead. */
export interface ToolCallDecision {
  kind: 'refuse';
  result: ToolResultPart;
}

/** The result the model gets instead of the one handed in (the next mechanism is handed this one). */
export interface ToolResultDecision {
  kind: 'replace';
  result: ToolResultPart;
}

/** A module's own check on the run, as a scorer of the task verdict. */
export type MechanismScorer = Omit<ScorerResult, 'kind'>;

/** What happens to calls whose result never came back. */
export type DanglingDecision =
  /** Answer them with these results (one per dangling call) before the next request. */
  | { kind: 'answer'; results: ToolResultPart[] }
  /** Send them unanswered. */
  | { kind: 'leave' };

export interface ErrorInfo {
  category: ErrorCategory;
  message: string;
  attempt: number;
  /** Content had arrived before the failure. */
  partial: boolean;
  /** Overloaded answers in a row, this one included. */
  consecutiveOverloads: number;
}

export interface ResponseInfo {
  message: Message;
  stopReason: StopReason;
  model: string;
  partial: boolean;
  outputTokens: number;
  /** The output cap the request asked for (before the model's own limit). */
  maxTokens: number;
}

/** A loop run under this one (a sub-agent): its own task, tools, budgets and retry account. */
export interface NestedLoopRequest {
  task: string;
  system: string;
  /** The model it runs on, on the provider in force (absent: the run's model in force). */
  model?: string;
  maxIterations: number;
  /** Its own attempt budget (requests of any kind), or `shared`: its requests count in the run's. */
  attempts: number | 'shared';
  /** Names its random stream, forked from the run's (the same run and key, the same draws). */
  seedKey: string;
  /** Where its events go: the nested loop writes no event of its own into the run's log. */
  emit: Emit;
}

/** How a nested loop ended, from its terminate event. */
export interface NestedLoopOutcome {
  reason: TerminateReason;
  message?: string;
  /** The text of its last answer (a turn with no tool call), when it gave one. */
  answer?: string;
  /** The model it ran on. */
  model: string;
  /** Its model requests (HTTP attempts), foreground and background. */
  requests: number;
  totals: { usd: number; inputTokens: number; outputTokens: number };
}

/** Runs a nested loop to its end (it always ends: its budgets are its own). */
export type NestedLoop = (request: NestedLoopRequest) => Promise<NestedLoopOutcome>;

/**
 * One mechanism's life in one run: `create` is called once per run, so the state a mechanism
 * keeps (a streak, a count) is the run's own.
 */
export interface MechanismModule<C = RecoveryConfig> {
  /** A built-in module's mechanism id, or a strategy's `strategy:<name>`. */
  id: string;
  /**
   * The slice of the run's recovery config the hooks are handed, and what of the run's own
   * config they need (the answer's schema, say); `run` is absent only where no run config exists.
   */
  configOf(recovery: RecoveryConfig, run?: RunConfig): C;
  create(): EngineMechanism<C>;
  /** A note appended to the run's system prompt (read once per run); undefined: none. */
  systemNote?(config: C): string | undefined;
}

export interface EngineMechanism<C = RecoveryConfig> {
  beforeRequest?(ctx: HookContext<C>, info: { messageCount: number }): BeforeRequestDecision | undefined;
  /** Watch only: the stream is the vendor's; what a mechanism does about it goes at onError or afterResponse. */
  onStreamPart?(ctx: HookContext<C>, part: StreamPart): void;
  onError?(ctx: HookContext<C>, info: ErrorInfo): ErrorDecision | undefined;
  afterResponse?(ctx: HookContext<C>, info: ResponseInfo): AfterResponseDecision | undefined;
  onContextGrow?(
    ctx: HookContext<C>,
    info: { inputTokens: number; previousInputTokens: number },
  ): ContextGrowDecision | undefined;
  beforeToolCalls?(
    ctx: HookContext<C>,
    info: {
      calls: readonly ToolCallPart[];
      /** The calls not yet run, in call order (never empty). */
      remaining: readonly ToolCallPart[];
      /** Whether the tool of a call may run beside others. */
      parallelSafe(call: ToolCallPart): boolean;
    },
  ): ToolGroupDecision | undefined;
  beforeToolCall?(ctx: HookContext<C>, info: { call: ToolCallPart }): ToolCallDecision | undefined;
  onToolResult?(
    ctx: HookContext<C>,
    info: { call: ToolCallPart; result: ToolResultPart },
  ): ToolResultDecision | undefined;
  afterToolCalls?(
    ctx: HookContext<C>,
    info: { calls: readonly ToolCallPart[]; dangling: readonly ToolCallPart[] },
  ): DanglingDecision | undefined;
  /**
   * Tools the mechanism runs itself, offered to the model beside the run's own (asked once per
   * run, from its config): each call of one goes to runTool, not to the run's executor. A nested
   * loop is offered the run's own tools only.
   */
  ownTools?(config: C): readonly (ToolSpec & { parallelSafe: boolean })[];
  /**
   * Runs one call of a tool from ownTools. The engine writes the call's tool_start and tool_call
   * events around it; what the mechanism decided inside is its own events. `nested` starts a
   * loop under the run's; `model` is the model in force.
   */
  runTool?(
    ctx: HookContext<C>,
    info: { call: ToolCallPart; signal: AbortSignal; model: string; nested: NestedLoop },
  ): Promise<ToolResultPart>;
  /**
   * The module's own check on the run, asked once just before the task verdict (only when the run
   * has one): a scorer of the verdict with its reason; undefined: nothing to say.
   */
  judge?(ctx: HookContext<C>): MechanismScorer | undefined;
  /** Watch only: how the loop ended is decided; a mechanism may still say something (ctx.decide). */
  beforeEnd?(ctx: HookContext<C>, info: { reason: TerminateReason; message?: string }): void;
}

/** Helps a module keep its config slice's type. */
export function defineMechanism<C>(module: MechanismModule<C>): MechanismModule<C> {
  return module;
}

/**
 * What a strategy file exports as its default: a name (its decisions are written as
 * `strategy:<name>`), the slice of the recovery config it reads (absent: all of it) and a
 * factory called once per run. lib/runtime/load-strategy.ts loads one.
 */
export interface StrategyFile<C = RecoveryConfig> {
  name: string;
  configOf?(recovery: RecoveryConfig): C;
  create(): EngineMechanism<C>;
}

/** Helps a strategy file keep its types: `export default defineStrategy({ name, create })`. */
export function defineStrategy<C = RecoveryConfig>(strategy: StrategyFile<C>): StrategyFile<C> {
  return strategy;
}

/** A request as a simulated model sees it (lib/sim's PolicyRequest, the part a module's behaviour reads). */
export interface SimulatedRequest {
  system: string;
  messages: Message[];
  tools: readonly { name: string }[];
}

/** The simulated model's next turn (lib/sim's PolicyTurn). */
export interface SimulatedTurn {
  thinking?: string;
  text?: string;
  refusal?: string;
  toolCalls: { name: string; argsText: string }[];
}

/**
 * A behaviour a module adds to the simulated model, around the one the run's scenario or config
 * names: it answers the request itself or hands it on (`next`). It draws from `random` (the
 * vendor's seeded source) only when it acts, so a run it leaves alone keeps its log.
 */
export type SimulatedLayer = (
  request: SimulatedRequest,
  random: Random,
  next: () => SimulatedTurn,
) => SimulatedTurn;

/** A module's simulated-model behaviour for one run (the composition root wraps the policy in it); undefined: none. */
export type SimulatedBehaviour = (run: RunConfig) => SimulatedLayer | undefined;
