import type { ToolCallPart, ToolResultPart } from '@/lib/protocol';
import { accountOutcome } from './executor/account-outcome';
import { createCallRules, type CallRulesOptions } from './executor/call-rules';
import { decideCall, type ExecuteContext } from './executor/decide-call';
import { argsTextParses } from './executor/parse-args';
import { describeThrown } from './executor/run-tool';
import { truncateOutput } from './executor/truncate-output';

export type { ExecuteContext } from './executor/decide-call';
export type ToolExecutorOptions = CallRulesOptions;

export interface ToolExecutor {
  /**
   * Runs one call. Never throws: every failure is an is_error result. `halt` ends the run, and
   * so does `hostOverloaded` (the machine could not do the work). No `result`: the call was
   * interrupted (an interrupt tool fault) and its result never came back.
   */
  execute(
    call: ToolCallPart,
    ctx: ExecuteContext,
  ): Promise<{ result?: ToolResultPart; halt?: string; hostOverloaded?: string }>;
  /** May this call run beside others of its turn? (Its tool says so; an unknown tool may, it does nothing.) */
  parallelSafe(call: ToolCallPart): boolean;
  disabledTools(): string[];
  /** Failures each tool may still have before it is disabled. */
  budgets(): Record<string, number>;
}

/**
 * The tool executor: validates, guards, runs and reports one tool call at a time. Each rule
 * is switched by the run's recovery config — safeExecutor (budget, short-circuit, timeout),
 * loopGuard (repeat block, warn/halt), truncateChars, checkRateMax (sandboxed checks per
 * window of run time) and the argument repair ladder's rungs (repairJson, coerceArgs) — so a
 * lesson can run the same fault with a rule on and off. Unknown tools, bad arguments and
 * truncated-round refusals always answer with specific text: there is no useful "off" for
 * telling the model what went wrong.
 */
export function createToolExecutor(options: ToolExecutorOptions): ToolExecutor {
  const rules = createCallRules(options);
  const { toolbox, workspace, clock, config, emit, budget, guard } = rules;
  let revision = workspace.revision();

  async function execute(
    call: ToolCallPart,
    ctx: ExecuteContext,
  ): Promise<{ result?: ToolResultPart; halt?: string; hostOverloaded?: string }> {
    const started = clock.now();
    const loggedArgs: unknown =
      call.args ?? (argsTextParses(call) ? JSON.parse(call.argsText) : call.argsText);
    try {
      emit({
        event: 'tool_start',
        iteration: ctx.iteration,
        call_id: call.id,
        tool: call.name,
        args: loggedArgs,
      });
      if (workspace.revision() !== revision) {
        revision = workspace.revision();
        guard.forgetCalls();
        budget.forgetFailedCalls();
      }
      const outcome = await decideCall(rules, call, ctx);
      if (outcome.status === 'interrupted') {
        // Not booked as a failure: the call did not fail, its answer was lost.
        emit({
          event: 'tool_call',
          iteration: ctx.iteration,
          call_id: call.id,
          tool: call.name,
          args: outcome.repaired ? outcome.args : loggedArgs,
          ...(outcome.repaired ? { repaired: outcome.repaired } : {}),
          result_chars: 0,
          is_error: true,
          latency_ms: clock.now() - started,
          status: 'interrupted',
        });
        return {};
      }
      const cut = truncateOutput({
        tool: call.name,
        args: outcome.args,
        content: outcome.content,
        limit: config.truncateChars,
      });
      // A call the machine could not do is not the tool's failure: no budget or loop guard counts it (the run ends).
      const { content, halt } =
        outcome.hostOverloaded !== undefined
          ? { content: cut.content, halt: undefined }
          : accountOutcome(rules, call, { ...outcome, content: cut.content }, ctx.iteration);
      emit({
        event: 'tool_call',
        iteration: ctx.iteration,
        call_id: call.id,
        tool: call.name,
        // A repaired call logs the arguments it ran with, and which rungs changed them.
        args: outcome.repaired ? outcome.args : loggedArgs,
        ...(outcome.repaired ? { repaired: outcome.repaired } : {}),
        result: content,
        result_chars: content.length,
        is_error: outcome.isError,
        latency_ms: clock.now() - started,
        status: outcome.status,
        ...(cut.droppedChars > 0 ? { truncated_chars: cut.droppedChars } : {}),
        // What is left of the tool's failure budget after this call, so no count goes stale.
        ...(config.safeExecutor && toolbox.get(call.name)
          ? { budget_left: Math.max(0, config.failureBudget - budget.failureCount(call.name)) }
          : {}),
      });
      return {
        result: { type: 'tool_result', callId: call.id, content, isError: outcome.isError },
        ...(halt ? { halt } : {}),
        ...(outcome.hostOverloaded !== undefined ? { hostOverloaded: outcome.hostOverloaded } : {}),
      };
    } catch (error) {
      // Last resort (an emit or a rule threw): still answer the call instead of crashing the run.
      const content = `Error: internal failure while running ${call.name}: ${describeThrown(error)}`;
      return { result: { type: 'tool_result', callId: call.id, content, isError: true } };
    }
  }

  return {
    execute,
    parallelSafe: (call) => toolbox.get(call.name)?.parallelSafe ?? !toolbox.get(call.name),
    disabledTools: () => budget.disabledTools(),
    budgets: () => Object.fromEntries(toolbox.names().map((n) => [n, budget.left(n)])),
  };
}
