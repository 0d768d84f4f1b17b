import type { Message, RecoveryConfig, ToolCallPart, ToolResultPart } from '@/lib/protocol';
import type { Emit } from './event-log';

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

/** What a dangling call's synthetic result says to the model. */
export function interruptedResult(call: ToolCallPart): string {
  return `Error: ${call.name} was interrupted before it returned a result, so what it did is unknown. Call it again if it is still needed.`;
}

/** The message the loop goes on with after a turn was cut (the person or the harness resuming the run). */
export const RESUME_NOTE =
  'The previous turn was interrupted before every tool call returned. Carry on with the task.';

interface Group {
  calls: ToolCallPart[];
  parallel: boolean;
  /** Why the group is what it is, in words. */
  why: string;
}

/**
 * A turn's calls in groups, in call order: neighbouring calls whose tools may run beside others
 * run together, at most `limit` at once; any other call runs alone.
 */
export function groupCalls(calls: readonly ToolCallPart[], runner: ToolRunner, limit: number): Group[] {
  const groups: Group[] = [];
  let open: ToolCallPart[] = [];
  let afterFull = false;
  const close = (): void => {
    if (open.length > 1) {
      const names = open.map((c) => c.name).join(', ');
      groups.push({
        calls: open,
        parallel: true,
        why: `${open.length} calls run at once (${names}): their tools only read, so none waits for another (at most ${limit} at once)`,
      });
    } else if (open.length === 1) {
      const name = open[0]!.name;
      groups.push({
        calls: open,
        parallel: false,
        why: afterFull
          ? `${name} runs after the ${limit} calls before it: at most ${limit} run at once`
          : `${name} runs alone: the calls beside it may change the workspace`,
      });
    }
    afterFull = open.length === limit && limit > 1;
    open = [];
  };
  for (const call of calls) {
    if (limit > 1 && runner.parallelSafe?.(call)) {
      open.push(call);
      if (open.length === limit) close();
      continue;
    }
    close();
    afterFull = false;
    groups.push({
      calls: [call],
      parallel: false,
      why:
        limit === 1
          ? `${call.name} runs alone: the calls of a turn run one after another (at most 1 at once)`
          : `${call.name} runs alone: it may change the workspace, so it never runs beside another call`,
    });
  }
  close();
  return groups;
}

/**
 * The loop's tool step: runs a turn's calls (groups of read-only calls at once, every other
 * call alone), and answers them in one user message with the results in call order — what
 * both dialects require (Anthropic: every tool_result in the next user message; OpenAI: one
 * tool message per call, rendered in part order). A call whose result never came back is
 * dangling: with `repairInterrupted` it gets a synthetic error result, and either way the
 * decision is a `dangling_calls` event. Calls after a halt, or after a call the machine was too
 * overloaded to do, are not run (the run ends there).
 */
export async function runToolStep(options: {
  calls: readonly ToolCallPart[];
  runner: ToolRunner;
  config: Pick<RecoveryConfig['tools'], 'maxParallel' | 'repairInterrupted'>;
  emit: Emit;
  signal: AbortSignal;
  iteration: number;
  truncatedRound: boolean;
}): Promise<{ message: Message; halt?: string; hostOverloaded?: string }> {
  const { calls, runner, config, emit, signal, iteration, truncatedRound } = options;
  const limit = config.maxParallel;
  const answered = new Map<string, ToolResultPart>();
  const dangling: ToolCallPart[] = [];
  const ran: ToolCallPart[] = [];
  let halt: string | undefined;
  let hostOverloaded: string | undefined;
  for (const group of groupCalls(calls, runner, limit)) {
    if (signal.aborted) throw signal.reason;
    if (calls.length > 1) {
      emit({
        event: 'tool_batch',
        iteration,
        call_ids: group.calls.map((c) => c.id),
        tools: group.calls.map((c) => c.name),
        parallel: group.parallel,
        limit,
        why: group.why,
      });
    }
    const outcomes = await Promise.all(
      group.calls.map((call) => runner.execute(call, { iteration, signal, truncatedRound })),
    );
    outcomes.forEach((outcome, k) => {
      const call = group.calls[k]!;
      ran.push(call);
      if (outcome.result) answered.set(call.id, outcome.result);
      else dangling.push(call);
      halt ??= outcome.halt;
      hostOverloaded ??= outcome.hostOverloaded;
    });
    if (halt || hostOverloaded !== undefined) break;
  }
  if (dangling.length > 0) {
    const repaired = config.repairInterrupted;
    const names = dangling.map((c) => c.name).join(', ');
    emit({
      event: 'dangling_calls',
      iteration,
      calls: dangling.map((c) => ({ call_id: c.id, tool: c.name })),
      repaired,
      next: repaired ? 'synthetic_results' : 'sent_unanswered',
      why: repaired
        ? `the turn was cut before ${names} returned: each dangling call gets a synthetic error result, so the next request answers every call`
        : `the turn was cut before ${names} returned and the repair is off: the next request carries the call${dangling.length === 1 ? '' : 's'} unanswered, which a strict vendor rejects with a 400`,
    });
    if (repaired)
      for (const call of dangling)
        answered.set(call.id, {
          type: 'tool_result',
          callId: call.id,
          content: interruptedResult(call),
          isError: true,
        });
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
