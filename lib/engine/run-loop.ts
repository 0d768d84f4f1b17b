import type {
  EventBody,
  EventOf,
  Message,
  RecoveryConfig,
  RunConfig,
  RunEventType,
  RunTotals,
  TerminateReason,
  ToolCallPart,
} from '@/lib/protocol';
import { cacheSavingUsd, costUsd, NO_TOTALS, terminateEvent } from '@/lib/protocol';
import type { ToolSpec } from '@/lib/providers/types';
import { answerText, backgroundCall } from './background-call';
import { RunBinding, type ProviderBinding } from './binding';
import { ContextChannel, ContextOverflowExhausted } from './context/context-channel';
import type { EngineDeps } from './engine-deps';
import type { Emit } from './event-log';
import { OutputCap } from './output/output-cap';
import { callModel, ModelCallFailed, type CallResult, type CallState } from './model-call';
import { armRunTimeBudget, RunBudgetExceeded } from './run-budget';
import {
  MechanismHost,
  type MechanismModule,
  type NestedLoopOutcome,
  type NestedLoopRequest,
} from './mechanism-port';
import { runToolStep, type ToolRunner } from './tool-step';
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
    const outcome = await iterate({ ...options, emit, signal, system }, mechanisms, totals, (n) => {
      iteration = n;
    });
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

async function iterate(
  options: LoopOptions,
  mechanisms: MechanismHost,
  totals: Totals,
  setIteration: (n: number) => void,
): Promise<{ reason: TerminateReason; message?: string }> {
  const { config, recovery, emit, signal, clock } = options;
  const messages: Message[] = options.resume
    ? options.resume.messages.map((m) => m.message)
    : [{ role: 'user', parts: [{ type: 'text', text: options.task }] }];
  const state: CallState = options.callState ?? {
    consecutiveOverloads: 0,
    requestNo: 0,
    maxAttempts: config.budgets.maxAttempts,
  };
  // The one binding (provider, model, fallback): every call reads it, a swap replaces it.
  const binding = new RunBinding(options);
  // The mechanisms' own tools (a delegate tool) are offered beside the run's and run by them.
  const tools = [
    ...options.tools,
    ...mechanisms
      .ownTools()
      .map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  ];
  const executor = mechanisms.withOwnTools(options.executor, {
    model: () => binding.model,
    nested: (request) => runNested(options, binding, state, request),
  });
  const context = new ContextChannel({
    binding,
    recovery,
    state,
    clock,
    random: options.random,
    emit,
    signal,
    probe: options.probe,
    system: options.system,
    tools,
    recordBackground: (result, iteration, purpose) =>
      recordCall({ options, binding, totals, iteration, result, purpose }),
  });
  // Inherited messages keep the turns that added them (context_sent refers to them by turn).
  if (options.resume) context.adopt(options.resume.messages);
  const output = new OutputCap({
    config: recovery.output,
    maxTokens: config.maxOutputTokens ?? recovery.output.maxTokens,
    emit,
  });
  const overBudget = (): { reason: TerminateReason; message: string } | undefined =>
    totals.usd >= config.budgets.maxCostUsd
      ? {
          reason: 'cost_budget',
          message: `spent $${totals.usd.toFixed(4)} of the $${config.budgets.maxCostUsd} budget`,
        }
      : undefined;
  // Set by a mechanism's resend decision: the output cap from then on.
  let portMaxTokens: number | undefined;
  let lastInputTokens = 0;

  for (
    let iteration = (options.resume?.afterTurn ?? 0) + 1;
    iteration <= config.budgets.maxIterations;
    iteration++
  ) {
    setIteration(iteration);
    if (signal.aborted) throw signal.reason;
    const swapped = options.beforeRequest?.(iteration);
    if (swapped) {
      // A swap: the provider, model and fallback change from this request on, for the calls
      // and the context channel alike (its window follows the model, its summary the provider).
      binding.swap(swapped);
      state.consecutiveOverloads = 0;
    }
    emit({ event: 'iteration_start', iteration });
    const before = mechanisms.beforeRequest(iteration, { messageCount: messages.length });
    if (before) return { reason: before.reason, message: before.message };

    const result = await context.call({
      messages,
      iteration,
      compactNow: options.takeCompactRequest?.() ?? false,
      account: (cut) => recordCall({ options, binding, totals, iteration, result: cut }),
      invoke: (sent) =>
        callModel({
          binding,
          request: {
            system: options.system,
            messages: sent,
            tools,
            maxTokens: portMaxTokens ?? output.maxTokens,
            thinking: config.provider.thinking,
            promptCaching: recovery.cache.promptCaching,
            ...(config.answer ? { responseFormat: config.answer } : {}),
          },
          recovery,
          state,
          clock,
          random: options.random,
          emit,
          signal,
          probe: options.probe,
          iteration,
          overflowHandled: context.handlesOverflow,
          mechanisms,
          rebind: (target) => options.rebind?.({ ...target, iteration }),
        }),
    });

    recordCall({ options, binding, totals, iteration, result });
    if (lastInputTokens > 0 && result.usage.inputTokens > lastInputTokens) {
      const grew = mechanisms.onContextGrow(iteration, {
        inputTokens: result.usage.inputTokens,
        previousInputTokens: lastInputTokens,
      });
      if (grew) return { reason: grew.reason, message: grew.message };
    }
    lastInputTokens = result.usage.inputTokens;
    // The output cap (built in) reviews the response first; the port's afterResponse is asked
    // when the cap lets it proceed.
    const capped = output.review({ result, iteration });
    const port =
      capped.kind === 'proceed' && !capped.truncatedRound
        ? mechanisms.afterResponse(iteration, {
            message: result.message,
            stopReason: result.stopReason,
            model: result.model,
            partial: result.partial,
            outputTokens: result.usage.outputTokens,
            maxTokens: portMaxTokens ?? output.maxTokens,
          })
        : undefined;
    if (port?.kind === 'resend' && port.maxTokens !== undefined) portMaxTokens = port.maxTokens;
    const decision = port ?? capped;
    // Escalation: the cut response is billed but not kept; the same messages go again.
    if (decision.kind === 'resend') {
      const spent = overBudget();
      if (spent) return spent;
      continue;
    }
    if (result.message.parts.length > 0) messages.push(result.message);
    const spent = overBudget();
    if (spent) return spent;
    if (decision.kind === 'stop') return { reason: decision.reason, message: decision.message };
    if (decision.kind === 'continue') {
      messages.push({ role: 'user', parts: [{ type: 'text', text: decision.prompt }] });
      continue;
    }

    const calls = result.message.parts.filter((p): p is ToolCallPart => p.type === 'tool_call');
    if (calls.length === 0) {
      if (result.stopReason === 'refusal') return { reason: 'refusal', message: 'the model refused' };
      if (options.title !== false) await titleRun({ options, binding, state, totals, iteration });
      return { reason: 'end_turn' };
    }

    const step = await runToolStep({
      calls,
      runner: executor,
      mechanisms,
      signal,
      iteration,
      truncatedRound: decision.truncatedRound,
    });
    messages.push(step.message);
    // The machine could not do a call's work: going on would be a trajectory its speed decided.
    if (step.hostOverloaded !== undefined) return { reason: 'host_overloaded', message: step.hostOverloaded };
    if (step.halt) return { reason: 'tool_halt', message: step.halt };
  }
  return { reason: 'max_iterations', message: `stopped after ${config.budgets.maxIterations} iterations` };
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

const TITLE_SYSTEM =
  'Write a title for the agent run below: at most six words, no quotes, no trailing period.';

/**
 * A background call for the run's title once the work is done; the run ends the same without
 * it. The model sees the task only: the run's outcome text is the model's own claim (it can say
 * "fixed" when the check still fails), so a title written from it could claim what the run did
 * not do.
 */
async function titleRun({
  options,
  binding,
  state,
  totals,
  iteration,
}: {
  options: LoopOptions;
  binding: RunBinding;
  state: CallState;
  totals: Totals;
  iteration: number;
}): Promise<void> {
  const result = await backgroundCall({
    binding,
    system: TITLE_SYSTEM,
    messages: [{ role: 'user', parts: [{ type: 'text', text: `Task: ${options.task}` }] }],
    maxTokens: 64,
    recovery: options.recovery,
    state,
    clock: options.clock,
    random: options.random,
    emit: options.emit,
    signal: options.signal,
    probe: options.probe,
    iteration,
    purpose: 'title',
  });
  if (!result) return;
  recordCall({ options, binding, totals, iteration, result, purpose: 'title' });
  const title = answerText(result);
  if (title) options.emit({ event: 'run_title', iteration, title });
}

/**
 * Every model call that got an answer — foreground or background — is an llm_call in the
 * log and counts in the run's tokens and cost (the course traces every LLM call).
 */
function recordCall({
  options,
  binding,
  totals,
  iteration,
  result,
  purpose,
}: {
  options: LoopOptions;
  binding: RunBinding;
  totals: Totals;
  iteration: number;
  result: CallResult;
  purpose?: string;
}): void {
  const cached = result.usage.cachedInput;
  const usd = costUsd(result.model, result.usage.inputTokens, result.usage.outputTokens, cached);
  totals.inputTokens += result.usage.inputTokens;
  totals.outputTokens += result.usage.outputTokens;
  totals.usd += usd;
  options.emit({
    event: 'llm_call',
    iteration,
    attempt: result.attempt,
    vendor: binding.provider.vendor,
    model: result.model,
    input_tokens: result.usage.inputTokens,
    output_tokens: result.usage.outputTokens,
    ...(result.usage.outputCounted ? { output_tokens_counted: true as const } : {}),
    ...(cached
      ? {
          cache_read_tokens: cached.read,
          cache_write_tokens: cached.written,
          cache_saved_usd: cacheSavingUsd(result.model, result.usage.inputTokens, cached),
        }
      : {}),
    usd: round6(usd),
    usd_so_far: round6(totals.usd),
    stop_reason: result.stopReason,
    vendor_stop_reason: result.vendorStopReason,
    latency_ms: Math.round(result.latencyMs),
    ...(result.partial ? { partial: true } : {}),
    message: result.message,
    ...(purpose ? { background: true, purpose } : {}),
  });
}

/** The reason a run's signal is aborted with, so the terminate event can say who stopped it. */
export class RunAborted extends Error {
  constructor(readonly reason: 'aborted' | 'abandoned') {
    super(reason === 'abandoned' ? 'run abandoned: nobody was watching' : 'run aborted');
    this.name = 'AbortError';
  }
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
