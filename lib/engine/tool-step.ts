import type { Message, ToolCallPart, ToolResultPart } from '@/lib/protocol';
import type { MechanismHost } from './mechanism-host';

/** What the loop needs of a tool executor (lib/tools provides the safe one). */
export interface ToolRunner {
  /**
   * No `result`: the call was interrupted and its result never came back. `halt` ends the run;
   * `hostOverloaded` too (the machine could not do the call's work, so its answer is unknown).
   */
  execute(
    call: ToolCallPart,
    ctx: { iteration: number; signal: AbortSignal; truncatedRound: boolean },
  ): Promise<{ result?: ToolResultPart; halt?: string; hostOverloaded?: string }>;
  /** May this call run beside others of its turn? Absent: no call may. */
  parallelSafe?(call: ToolCallPart): boolean;
}

/** The message the loop goes on with after a turn was cut (the person or the harness resuming the run). */
export const RESUME_NOTE =
  'The previous turn was interrupted before every tool call returned. Carry on with the task.';

/**
 * The loop's tool step: runs a turn's calls in the groups the mechanisms on the port hand out
 * (beforeToolCalls: parallel-tool-calls runs read-only calls at once; with no decision a call
 * runs alone), and answers them in one user message with the results in call order — what
 * both dialects require (Anthropic: every tool_result in the next user message; OpenAI: one
 * tool message per call, rendered in part order). A call whose result never came back is
 * dangling: the port's afterToolCalls decides (interrupted-repair: a synthetic error result, or
 * sent unanswered; its dangling_calls event says which). Each call is first put to the port's
 * beforeToolCall (a refusal answers it without running it) and its result to onToolResult. Calls
 * after a halt, or after a call the machine was too overloaded to do, are not run (the run ends there).
 */
export async function runToolStep(options: {
  calls: readonly ToolCallPart[];
  runner: ToolRunner;
  mechanisms: MechanismHost;
  signal: AbortSignal;
  iteration: number;
  truncatedRound: boolean;
}): Promise<{ message: Message; halt?: string; hostOverloaded?: string }> {
  const { calls, runner, mechanisms, signal, iteration, truncatedRound } = options;
  const answered = new Map<string, ToolResultPart>();
  const dangling: ToolCallPart[] = [];
  const ran: ToolCallPart[] = [];
  let halt: string | undefined;
  let hostOverloaded: string | undefined;
  const parallelSafe = (call: ToolCallPart): boolean => runner.parallelSafe?.(call) ?? false;
  let remaining = calls;
  while (remaining.length > 0) {
    if (signal.aborted) throw signal.reason;
    const decision = mechanisms.beforeToolCalls(iteration, { calls, remaining, parallelSafe });
    const group = decision?.calls ?? [remaining[0]!];
    if (group.length === 0 || group.some((call, k) => call !== remaining[k]))
      throw new Error('a mechanism handed out tool calls that are not the next ones of the turn');
    remaining = remaining.slice(group.length);
    const outcomes = await Promise.all(
      group.map(async (call) => {
        // The port's beforeToolCall may refuse the call (it never runs), and onToolResult may change what the model gets.
        const refused = mechanisms.beforeToolCall(iteration, { call });
        if (refused) return { result: refused.result };
        const outcome = await runner.execute(call, { iteration, signal, truncatedRound });
        return outcome.result
          ? { ...outcome, result: mechanisms.onToolResult(iteration, call, outcome.result) }
          : outcome;
      }),
    );
    outcomes.forEach((outcome, k) => {
      const call = group[k]!;
      ran.push(call);
      if (outcome.result) answered.set(call.id, outcome.result);
      else dangling.push(call);
      halt ??= outcome.halt;
      hostOverloaded ??= outcome.hostOverloaded;
    });
    if (halt || hostOverloaded !== undefined) break;
  }
  if (dangling.length > 0) {
    const decision = mechanisms.afterToolCalls(iteration, { calls, dangling });
    if (decision?.kind === 'answer')
      for (const result of decision.results) answered.set(result.callId, result);
  }
  const parts: Message['parts'] = ran.flatMap((call) => {
    const result = answered.get(call.id);
    return result ? [result] : [];
  });
  if (dangling.length > 0) parts.push({ type: 'text', text: RESUME_NOTE });
  return {
    message: { role: 'user', parts },
    ...(halt ? { halt } : {}),
    ...(hostOverloaded !== undefined ? { hostOverloaded } : {}),
  };
}
