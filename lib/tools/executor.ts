import type { Clock, Random } from '@/lib/clock';
import type {
  ArgRepairRung,
  EventBody,
  RecoveryConfig,
  ToolCallPart,
  ToolCallStatus,
  ToolFault,
  ToolResultPart,
} from '@/lib/protocol';
import { canonicalKey } from './executor/canonical-key';
import { CheckRate } from './executor/check-rate';
import { describeIssues } from './executor/describe-issues';
import { FailureBudget } from './executor/failure-budget';
import { LoopGuard } from './executor/loop-guard';
import { argsTextParses } from './executor/parse-args';
import { repairLadder } from './executor/repair-args';
import { describeThrown, runTool } from './executor/run-tool';
import { activeFaults } from './executor/tool-faults';
import { truncateOutput } from './executor/truncate-output';
import * as text from './executor/messages';
import type { SlotShare } from './check/fair-slots';
import type { Toolbox } from './registry';
import type { Workspace } from './types';

export interface ToolExecutorOptions {
  toolbox: Toolbox;
  workspace: Workspace;
  clock: Clock;
  random: Random;
  config: RecoveryConfig['tools'];
  /** Read at every call, so a fault toggled mid-run applies to the next call. */
  faults: () => readonly ToolFault[];
  emit: (body: EventBody) => void;
  /** The run, as the check sandbox's pool knows it (its fair share of slots); a run of its own when absent. */
  share?: SlotShare;
}

export interface ExecuteContext {
  iteration: number;
  signal: AbortSignal;
  /** The model's round ended on the length cap: half-written arguments are refused. */
  truncatedRound: boolean;
}

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

interface Outcome {
  status: ToolCallStatus;
  content: string;
  isError: boolean;
  /** Set when the call's arguments parsed: the key for repeat detection. */
  key?: string;
  args?: Record<string, unknown>;
  /** The repair ladder's rungs that changed the arguments (`args` is then the repaired arguments). */
  repaired?: ArgRepairRung[];
  /** The machine could not do the tool's work: the run ends with this message. */
  hostOverloaded?: string;
}

type GuardKind = 'warning' | 'blocked' | 'short_circuit' | 'disabled' | 'halt' | 'rate_limited';

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
  const { toolbox, workspace, clock, random, config, faults, emit } = options;
  const share = options.share ?? Symbol('run');
  const budget = new FailureBudget(config.failureBudget);
  const guard = new LoopGuard(config);
  const checkRate = new CheckRate(config.checkRateMax, config.checkRateWindowMs);
  let revision = workspace.revision();
  const faultHits = new Map<string, number>();

  /** The faults that hit this call: active for the tool, and a fault with `times` only on its first calls. */
  function faultsFor(name: string): ToolFault[] {
    return activeFaults({ faults: faults(), tool: name }).filter((fault) => {
      if (fault.times === undefined) return true;
      const hits = faultHits.get(fault.id) ?? 0;
      if (hits >= fault.times) return false;
      faultHits.set(fault.id, hits + 1);
      return true;
    });
  }
  const shortCircuit = config.safeExecutor && config.shortCircuitRepeats;

  function emitGuard(
    iteration: number,
    tool: string,
    kind: GuardKind,
    reason: string,
    extra: { consecutive_failures?: number; budget_left?: number; next?: string } = {},
  ): void {
    emit({ event: 'tool_guard', iteration, tool, kind, reason, ...extra });
  }

  /** Decides and, when allowed, runs the call; guards that fire before running emit here. */
  async function decide(call: ToolCallPart, ctx: ExecuteContext): Promise<Outcome> {
    const name = call.name;
    if (ctx.truncatedRound && !argsTextParses(call)) {
      return { status: 'refused_truncated', isError: true, content: text.refusedTruncated(call) };
    }
    const tool = toolbox.get(name);
    if (!tool)
      return { status: 'unknown_tool', isError: true, content: text.unknownTool(name, toolbox.names()) };
    if (config.safeExecutor && budget.isDisabled(name)) {
      return { status: 'disabled', isError: true, content: text.disabled(name, budget.failureCount(name)) };
    }
    const ladder = repairLadder({
      call,
      input: tool.input,
      rungs: { repairJson: config.repairJson, coerceArgs: config.coerceArgs },
    });
    for (const step of ladder.steps)
      emit({ event: 'arg_repair', iteration: ctx.iteration, call_id: call.id, tool: name, ...step });
    const parsed = ladder.parsed;
    if (!parsed.ok)
      return {
        status: 'invalid_args',
        isError: true,
        content: `Error: invalid arguments for ${name}: ${parsed.error}. Resend the call with a JSON object.`,
      };
    const key = canonicalKey({ tool: name, args: parsed.args });
    const base = {
      key,
      args: parsed.args,
      ...(ladder.steps.length > 0 ? { repaired: ladder.steps.map((step) => step.rung) } : {}),
    };
    if (config.loopGuard) {
      const { count, blocked } = guard.countCall(key);
      if (blocked) {
        const reason = text.blockedReason(name, count);
        emitGuard(ctx.iteration, name, 'blocked', reason);
        return { ...base, status: 'blocked', isError: true, content: text.blocked(name, count) };
      }
    }
    if (shortCircuit && budget.failedBefore(key)) {
      emitGuard(ctx.iteration, name, 'short_circuit', `exact repeat of a failed ${name} call`, {
        budget_left: budget.left(name),
      });
      return { ...base, status: 'short_circuit', isError: true, content: text.shortCircuit(name) };
    }
    const checked = tool.input.safeParse(parsed.args);
    if (!checked.success) {
      return {
        ...base,
        status: 'invalid_args',
        isError: true,
        content: describeIssues({ tool: name, input: tool.input, args: parsed.args, error: checked.error }),
      };
    }
    if (tool.sandboxed) {
      const now = clock.now();
      const rate = checkRate.admit(now);
      if (!rate.admitted) {
        const waitMs = rate.nextAt - now;
        emitGuard(
          ctx.iteration,
          name,
          'rate_limited',
          text.rateLimitedReason(name, rate.count, checkRate.max, checkRate.windowMs),
          {
            next: text.rateLimitedNext(name, rate.nextAt, waitMs),
          },
        );
        return {
          ...base,
          status: 'rate_limited',
          isError: true,
          content: text.rateLimited(name, rate.count, checkRate.windowMs, waitMs),
        };
      }
    }
    const hitting = faultsFor(name);
    const run = await runTool({
      tool,
      args: checked.data,
      workspace,
      clock,
      random,
      signal: ctx.signal,
      faults: hitting,
      share,
      ...(config.safeExecutor ? { timeoutMs: config.timeoutMs } : {}),
    });
    // The tool ran (its effects stand), but its result never reaches the loop.
    if (hitting.some((fault) => fault.kind === 'interrupt'))
      return { ...base, status: 'interrupted', isError: true, content: '' };
    return { ...base, ...run };
  }

  /** Books the outcome in the budget and the loop guard; adds their notes to the text. */
  function account(
    call: ToolCallPart,
    outcome: Outcome,
    iteration: number,
  ): { content: string; halt?: string } {
    const name = call.name;
    let content = outcome.content;
    const ranAndFailed =
      outcome.status === 'error' || outcome.status === 'timeout' || outcome.status === 'invalid_args';
    if (config.safeExecutor && ranAndFailed && toolbox.get(name)) {
      const { disabledNow } = budget.record({ tool: name, ...(outcome.key ? { key: outcome.key } : {}) });
      if (disabledNow) {
        emitGuard(
          iteration,
          name,
          'disabled',
          `${name} failed ${text.timesWord(budget.failureCount(name))} (budget ${config.failureBudget})`,
          {
            budget_left: 0,
          },
        );
        content += `\n\n${text.disabledNow(name, budget.failureCount(name))}`;
      }
    }
    if (!config.loopGuard) return { content };
    const { consecutive, verdict } = guard.recordOutcome({ tool: name, isError: outcome.isError });
    if (verdict === 'halt') {
      const reason = `${name} failed ${text.timesWord(consecutive)} in a row (halt at ${config.haltAfterFailures})`;
      emitGuard(iteration, name, 'halt', reason, { consecutive_failures: consecutive });
      return { content, halt: reason };
    }
    if (verdict === 'warning') {
      emitGuard(iteration, name, 'warning', `${name} failed ${text.timesWord(consecutive)} in a row`, {
        consecutive_failures: consecutive,
      });
      content = `${text.warning(name, consecutive, config.haltAfterFailures)}\n\n${content}`;
    }
    return { content };
  }

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
      const outcome = await decide(call, ctx);
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
          : account(call, { ...outcome, content: cut.content }, ctx.iteration);
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
