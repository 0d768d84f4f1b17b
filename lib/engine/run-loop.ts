import type {
  EventBody,
  EventOf,
  Message,
  RecoveryConfig,
  RunConfig,
  RunEventType,
  RunTotals,
  TerminateReason,
} from '@/lib/protocol';
import { NO_TOTALS, terminateEvent } from '@/lib/protocol';
import type { ToolSpec } from '@/lib/providers/types';
import type { RunBinding, ProviderBinding } from './binding';
import { ContextOverflowExhausted } from './context/context-channel';
import type { EngineDeps } from './engine-deps';
import type { Emit } from './event-log';
import { iterate } from './iterate';
import { ModelCallFailed, type CallState } from './model-call';
import { armRunTimeBudget, RunBudgetExceeded } from './run-budget';
import { MechanismHost } from './mechanism-host';
import type { MechanismModule, NestedLoopOutcome, NestedLoopRequest } from './mechanism-port';
import { round6, type CostAccount } from './record-call';
import type { ToolRunner } from './tool-step';
import { ENGINE_MODULES } from '@/lib/mechanisms/modules/engine';

export type { ToolRunner } from './tool-step';

export interface LoopOptions extends EngineDeps, ProviderBinding {
  config: RunConfig;
  recovery: RecoveryConfig;
  system: string;
  task: string;
  tools: ToolSpec[];
  executor: ToolRunner;
  /**
   * Applies queued control messages; called at every request boundary. Returning a binding
   * moves the run to another provider and model from this request on (a swap).
   */
  beforeRequest?: (iteration: number) => ProviderBinding | void;
  /** Cross-vendor fallback: make a swap now (an event) and return the new binding. */
  rebind?: (target: {
    vendor: string;
    model: string;
    reason: string;
    iteration: number;
  }) => ProviderBinding | undefined;
  /** The loop is ending: what still waited for a request boundary is said now, before the verdict and terminate. */
  beforeTerminate?: (iteration: number) => void;
  /** Was "Compact now" asked for since the last request? Read (and cleared) at every request boundary. */
  takeCompactRequest?: () => boolean;
  /**
   * The task verdict (the scenario's check on the final workspace), asked for once just before
   * terminate however the loop ended: how the loop ended is not whether the work got done.
   */
  judgeTask?: () => Promise<TaskJudgement>;
  /**
   * A forked run: the trajectory the parent's loop held after turn `afterTurn` (each message
   * with the turn that added it) and what those turns cost; the loop goes on from the next turn.
   */
  resume?: ResumePoint;
  /**
   * Mechanisms on the port beyond the built-in modules (a strategy loaded from a file), asked
   * after them at each point (lib/engine/mechanism-port.ts).
   */
  mechanisms?: readonly MechanismModule<never>[];
  /**
   * The tool runner a nested loop (a sub-agent a mechanism starts, lib/engine/mechanism-port.ts)
   * works with, writing to that loop's `emit`: its own failure budget and guards over the run's
   * workspace. Absent: a mechanism's nested loop fails with a clear error.
   */
  nestedTools?: (emit: Emit, seedKey: string) => ToolRunner;
  /** The attempt account it spends: a nested loop sharing its parent's (absent: its own, budgets.maxAttempts). */
  callState?: CallState;
  /**
   * The cost budget's account it spends: a nested loop spends its run's, so budgets.maxCostUsd
   * bounds the run and every loop under it together (absent: its own, from the run's inherited cost).
   */
  costAccount?: CostAccount;
  /** Whether the run asks for a title once the work is done (absent: it does; a nested loop does not). */
  title?: boolean;
}

/** Where a forked run picks up its parent's trajectory. */
export interface ResumePoint {
  messages: ReadonlyArray<{ message: Message; iteration: number }>;
  afterTurn: number;
  totals: { usd: number; inputTokens: number; outputTokens: number };
}

/** What the task verdict says: the task_verdict event's own fields. */
export type TaskJudgement = Omit<EventBody<EventOf<'task_verdict'>>, 'event' | 'iteration'>;

/** The engine's own accounting: it writes each llm_call's usd_so_far, so it sums the unrounded cost. */
type Totals = RunTotals;

/**
 * The plain agent loop: request → stream → tool calls → results → next request, until the
 * model ends its turn, a budget is spent, or the run is aborted. Every step is an event, and
 * whatever happens the log ends with exactly one terminate event.
 */
export async function runLoop(options: LoopOptions): Promise<void> {
  const inherited = options.resume?.totals;
  const totals: Totals = {
    ...NO_TOTALS,
    inputTokens: inherited?.inputTokens ?? 0,
    outputTokens: inherited?.outputTokens ?? 0,
    usd: inherited?.usd ?? 0,
  };
  let iteration = options.resume?.afterTurn ?? 0;
  let last: RunEventType | undefined;
  const emit: Emit = (body) => {
    last = body.event;
    return options.emit(body);
  };
  // The run's own budgets pull the same signal as an abort: the SDK holds it for the request in flight.
  const budget = new AbortController();
  const signal = AbortSignal.any([options.signal, budget.signal]);
  const cancelTimeBudget = armRunTimeBudget({
    clock: options.clock,
    maxRunMs: options.config.budgets.maxRunMs,
    watchdogEnabled: options.recovery.watchdog.enabled,
    lastEvent: () => last,
    abort: (reason) => budget.abort(reason),
  });
  // The run's mechanisms on the port: the built-in modules, then any strategy, in that order.
  const mechanisms = new MechanismHost([...ENGINE_MODULES, ...(options.mechanisms ?? [])], {
    clock: options.clock,
    emit,
    recovery: options.recovery,
    run: options.config,
  });
  const terminate = async (reason: TerminateReason, complete: boolean, message?: string): Promise<void> => {
    mechanisms.beforeEnd(iteration, { reason, ...(message !== undefined ? { message } : {}) });
    options.beforeTerminate?.(iteration);
    if (options.judgeTask) {
      const judgement: TaskJudgement = await options.judgeTask().catch((error: unknown) => ({
        verdict: 'not_checkable' as const,
        check: 'check',
        detail: `the check could not run: ${error instanceof Error ? error.message : String(error)}`,
      }));
      // The modules' own checks on the run join the verdict's scorers: a failed one makes the task not done.
      const own = mechanisms.judge(iteration);
      const failed = own.some((s) => s.passed === false);
      emit({
        event: 'task_verdict',
        iteration,
        ...judgement,
        ...(own.length > 0
          ? {
              scorers: [...(judgement.scorers ?? []), ...own],
              ...(failed && judgement.verdict === 'done' ? { verdict: 'not_done' as const } : {}),
            }
          : {}),
      });
    }
    emit(
      terminateEvent({
        iteration,
        reason,
        complete,
        message,
        totals: { ...totals, usd: round6(totals.usd) },
      }),
    );
  };

  try {
    // The modules' notes (systemNote) follow the run's system prompt, on every request of the loop.
    const system = mechanisms.system(options.system);
    const outcome = await iterate(
      { ...options, emit, signal, system, costAccount: options.costAccount ?? { usd: totals.usd } },
      mechanisms,
      totals,
      (n) => {
        iteration = n;
      },
      runNested,
    );
    await terminate(outcome.reason, outcome.reason === 'end_turn', outcome.message);
  } catch (error) {
    const stopped = signal.aborted ? signal.reason : error;
    if (stopped instanceof RunBudgetExceeded) {
      await terminate(stopped.reason, false, stopped.message);
    } else if (signal.aborted) {
      const reason = stopped instanceof RunAborted ? stopped.reason : 'aborted';
      await terminate(
        reason,
        false,
        reason === 'abandoned' ? 'nobody was watching the run' : 'aborted by request',
      );
    } else if (error instanceof ContextOverflowExhausted) {
      await terminate('context_overflow', false, error.message);
    } else if (error instanceof ModelCallFailed) {
      await terminate(error.exhausted ? 'retries_exhausted' : 'model_error', false, error.message);
    } else {
      await terminate('internal_error', false, error instanceof Error ? error.message : String(error));
    }
  } finally {
    cancelTimeBudget();
  }
}

/**
 * A loop under this one (a sub-agent a mechanism starts at runTool): the same engine on the
 * provider in force, with its own task, system prompt, turn budget and random stream (forked from
 * this run's by the request's key, so the same run gives it the same draws at any load), the
 * run's own tools on a runner of its own (LoopOptions.nestedTools), and its attempts counted in
 * its own account or, when shared, in this run's. It writes only to the request's `emit`; its
 * outcome is read from its terminate event.
 */
async function runNested(
  options: LoopOptions,
  binding: RunBinding,
  state: CallState,
  request: NestedLoopRequest,
): Promise<NestedLoopOutcome> {
  if (!options.nestedTools)
    throw new Error('this run cannot start a nested loop: it was given no tool runner for one (nestedTools)');
  const model = request.model ?? binding.model;
  let ended: EventBody<EventOf<'terminate'>> | undefined;
  let answer: string | undefined;
  let requests = 0;
  const emit: Emit = (body) => {
    if (body.event === 'terminate') ended = body;
    if (body.event === 'model_request') requests += 1;
    if (body.event === 'llm_call' && !body.background && body.message) {
      const calls = body.message.parts.some((p) => p.type === 'tool_call');
      if (!calls) answer = body.message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    }
    return request.emit(body);
  };
  const { answer: _answer, ...config } = options.config;
  const shared = request.attempts === 'shared';
  await runLoop({
    config: {
      ...config,
      budgets: {
        ...config.budgets,
        maxIterations: request.maxIterations,
        ...(shared ? {} : { maxAttempts: request.attempts as number }),
      },
    },
    recovery: options.recovery,
    provider: binding.provider,
    model,
    fallbackModel: binding.fallbackModel,
    system: request.system,
    task: request.task,
    tools: options.tools,
    executor: options.nestedTools(emit, request.seedKey),
    clock: options.clock,
    random: options.random.fork(request.seedKey),
    emit,
    signal: options.signal,
    probe: options.probe,
    title: false,
    ...(shared ? { callState: state } : {}),
    // Its dollars count in the run's cost budget: a child cannot spend what the run has not got.
    ...(options.costAccount ? { costAccount: options.costAccount } : {}),
  });
  return {
    reason: ended?.reason ?? 'internal_error',
    ...(ended?.message !== undefined ? { message: ended.message } : {}),
    ...(answer !== undefined ? { answer } : {}),
    model,
    requests,
    totals: {
      usd: ended?.usd_so_far ?? 0,
      inputTokens: ended?.input_tokens ?? 0,
      outputTokens: ended?.output_tokens ?? 0,
    },
  };
}

/** The reason a run's signal is aborted with, so the terminate event can say who stopped it. */
export class RunAborted extends Error {
  constructor(readonly reason: 'aborted' | 'abandoned') {
    super(reason === 'abandoned' ? 'run abandoned: nobody was watching' : 'run aborted');
    this.name = 'AbortError';
  }
}
