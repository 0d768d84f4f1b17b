/** The agent loop's turns: request, response, tool calls, until the loop ends. */
import type { Message, RunTotals, TerminateReason, ToolCallPart } from '@/lib/protocol';
import { RunBinding } from './binding';
import { ContextChannel } from './context/context-channel';
import { OutputCap } from './output/output-cap';
import { callModel, type CallState } from './model-call';
import type { MechanismHost } from './mechanism-host';
import type { NestedLoopOutcome, NestedLoopRequest } from './mechanism-port';
import { recordCall } from './record-call';
import type { LoopOptions } from './run-loop';
import { titleRun } from './run-title';
import { runToolStep } from './tool-step';

/** Starts a loop under the run's (runNested in run-loop.ts, handed in so the loop's turns need not import it back). */
export type NestedRunner = (
  options: LoopOptions,
  binding: RunBinding,
  state: CallState,
  request: NestedLoopRequest,
) => Promise<NestedLoopOutcome>;

/**
 * The loop's turns, one request at a time: each turn's request, its response reviewed by the
 * output cap and the mechanisms, and its tool calls, until the model ends its turn, a mechanism
 * stops it or a budget is spent; returns how it ended.
 */
export async function iterate(
  options: LoopOptions,
  mechanisms: MechanismHost,
  totals: RunTotals,
  setIteration: (n: number) => void,
  nested: NestedRunner,
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
    nested: (request) => nested(options, binding, state, request),
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
  // The cost budget is the whole tree's: this loop's calls and those of every loop sharing its account.
  const account = options.costAccount ?? totals;
  const overBudget = (): { reason: TerminateReason; message: string } | undefined => {
    if (account.usd < config.budgets.maxCostUsd) return undefined;
    const others = account.usd - totals.usd;
    return {
      reason: 'cost_budget',
      message:
        `spent $${account.usd.toFixed(4)} of the $${config.budgets.maxCostUsd} budget` +
        (others > 1e-9
          ? ` ($${totals.usd.toFixed(4)} by this loop, $${others.toFixed(4)} by the loops it shares the budget with)`
          : ''),
    };
  };
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
    // Loops sharing the budget (sub-agents under this turn's tool calls) may have spent it since the last call.
    if (account !== totals && account.usd > totals.usd) {
      const spent = overBudget();
      if (spent) return spent;
    }

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
