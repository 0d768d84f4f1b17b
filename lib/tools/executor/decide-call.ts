import type { ToolCallPart } from '@/lib/protocol';
import type { CallRules, Outcome } from './call-rules';
import { canonicalKey } from './canonical-key';
import { describeIssues } from './describe-issues';
import { argsTextParses } from './parse-args';
import { repairLadder } from './repair-args';
import { runTool } from './run-tool';
import * as text from './messages';
import type { AnyTool } from '../registry';

export interface ExecuteContext {
  iteration: number;
  signal: AbortSignal;
  /** The model's round ended on the length cap: half-written arguments are refused. */
  truncatedRound: boolean;
}

/** What an outcome of a call whose arguments parsed carries: the repeat key, the arguments, the repairs. */
type Parsed = Pick<Outcome, 'key' | 'args' | 'repaired'> & { key: string; args: Record<string, unknown> };

/** Decides and, when allowed, runs the call; guards that fire before running emit here. */
export async function decideCall(
  rules: CallRules,
  call: ToolCallPart,
  ctx: ExecuteContext,
): Promise<Outcome> {
  const admitted = admit(rules, call, ctx);
  if ('status' in admitted) return admitted;
  const { tool, base } = admitted;
  const refused = guardRepeat(rules, call.name, base, ctx.iteration);
  if (refused) return refused;
  const checked = tool.input.safeParse(base.args);
  if (!checked.success) {
    return {
      ...base,
      status: 'invalid_args',
      isError: true,
      content: describeIssues({ tool: call.name, input: tool.input, args: base.args, error: checked.error }),
    };
  }
  if (tool.sandboxed) {
    const limited = limitChecks(rules, call.name, base, ctx.iteration);
    if (limited) return limited;
  }
  const { workspace, clock, random, config, share } = rules;
  const hitting = rules.faultsFor(call.name);
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

/**
 * The refusals before a call's arguments are known (a truncated round, an unknown or disabled
 * tool, arguments that do not parse even repaired), or the tool and the parsed arguments.
 */
function admit(
  rules: CallRules,
  call: ToolCallPart,
  ctx: ExecuteContext,
): Outcome | { tool: AnyTool; base: Parsed } {
  const { toolbox, config, budget, emit } = rules;
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
  return { tool, base };
}

/**
 * The loop guard's block of a call repeated too often, and the short-circuit of an exact repeat
 * of a failed call.
 */
function guardRepeat(rules: CallRules, name: string, base: Parsed, iteration: number): Outcome | undefined {
  const { config, guard, budget } = rules;
  if (config.loopGuard) {
    const { count, blocked } = guard.countCall(base.key);
    if (blocked) {
      const reason = text.blockedReason(name, count);
      rules.emitGuard(iteration, name, 'blocked', reason);
      return { ...base, status: 'blocked', isError: true, content: text.blocked(name, count) };
    }
  }
  if (config.safeExecutor && config.shortCircuitRepeats && budget.failedBefore(base.key)) {
    rules.emitGuard(iteration, name, 'short_circuit', `exact repeat of a failed ${name} call`, {
      budget_left: budget.left(name),
    });
    return { ...base, status: 'short_circuit', isError: true, content: text.shortCircuit(name) };
  }
  return undefined;
}

/** The refusal of a sandboxed check past the run's rate (checkRateMax per window of run time). */
function limitChecks(rules: CallRules, name: string, base: Parsed, iteration: number): Outcome | undefined {
  const { clock, checkRate } = rules;
  const now = clock.now();
  const rate = checkRate.admit(now);
  if (rate.admitted) return undefined;
  const waitMs = rate.nextAt - now;
  rules.emitGuard(
    iteration,
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
