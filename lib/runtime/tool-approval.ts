import type { Clock } from '@/lib/clock';
import type { Emit } from '@/lib/engine';
import type { ApprovalConfig, PauseControl, ToolCallPart, ToolResultPart } from '@/lib/protocol';
import { formatMs } from '@/lib/protocol/format-duration';
import type { ToolExecutor } from '@/lib/tools';
import type { PauseGate } from './pause-gate';

type Decision = Extract<PauseControl, { action: 'approve' | 'deny' | 'edit' }>;

interface Waiting {
  call: ToolCallPart;
  decide: (decision: Decision) => void;
}

/**
 * Tool calls that wait for a person: the executor, with each call the approval config names held
 * before it runs. The run waits paused (a `paused` event with the call and its arguments; the run
 * clock frozen, or — with a timeout — running until the timeout denies the call) for a decision:
 * approve (the call runs), deny (the model receives the message as the call's error result and
 * recovers from it like any tool failure), or edit (the call runs with the arguments given).
 * Each decision is a `tool_approval` event saying who decided, why, and what happens next.
 */
export interface ToolApproval {
  readonly executor: ToolExecutor;
  /** An approve, deny or edit from outside; a decision for no waiting call is a warning in the log. */
  decide(decision: Decision): void;
}

export function createToolApproval(options: {
  config: ApprovalConfig | undefined;
  executor: ToolExecutor;
  gate: PauseGate;
  clock: Clock;
  emit: Emit;
  /** Does the tool change the workspace? (`writes` asks for approval of those only.) */
  mutates: (tool: string) => boolean;
  closed: () => boolean;
}): ToolApproval {
  const { config, executor, gate, clock, emit } = options;
  const waiting = new Map<string, Waiting>();
  const needsApproval = (tool: string): boolean => {
    if (!config) return false;
    if (config.tools === 'all') return true;
    if (config.tools === 'writes') return options.mutates(tool);
    return config.tools.includes(tool);
  };

  const approved: ToolExecutor = {
    ...executor,
    parallelSafe: (call) => executor.parallelSafe(call),
    disabledTools: () => executor.disabledTools(),
    budgets: () => executor.budgets(),
    execute(call, ctx) {
      const stop = gate.beforeTool(call);
      const go = (): ReturnType<ToolExecutor['execute']> =>
        needsApproval(call.name) ? awaitDecision(call, ctx) : executor.execute(call, ctx);
      // A run cancelled during the pause does not run the call.
      return stop
        ? stop.then(() => {
            if (ctx.signal.aborted) throw ctx.signal.reason;
            return go();
          })
        : go();
    },
  };

  async function awaitDecision(
    call: ToolCallPart,
    ctx: Parameters<ToolExecutor['execute']>[1],
  ): ReturnType<ToolExecutor['execute']> {
    const timeoutMs = config?.timeoutMs;
    const args = call.args ?? call.argsText;
    emit({
      event: 'paused',
      iteration: ctx.iteration,
      trigger: 'approval',
      reason: `the ${call.name} call needs approval (${describeApproval(config!)})`,
      at: `before the ${call.name} call ${call.id} runs`,
      clock: timeoutMs === undefined ? 'held' : 'running',
      next:
        'approve: the call runs; deny: the model receives your message as the call’s error; edit: the call runs with your arguments' +
        (timeoutMs === undefined
          ? '. The run waits until someone decides'
          : `. Undecided after ${formatMs(timeoutMs)} of run time, the call is denied`),
      call: { id: call.id, tool: call.name, args },
      ...(timeoutMs !== undefined ? { timeout_ms: timeoutMs } : {}),
    });
    let settle: (made: Decision | 'timeout') => void = () => {};
    const decision = new Promise<Decision | 'timeout'>((resolve) => (settle = resolve));
    waiting.set(call.id, { call, decide: settle });
    // No timeout: the run waits paused, its clock frozen. With one, the clock runs down to it.
    const timer = new AbortController();
    const outcome =
      timeoutMs === undefined
        ? decision
        : Promise.race([
            decision,
            clock.sleep(timeoutMs, timer.signal).then(
              () => 'timeout' as const,
              () => 'timeout' as const,
            ),
          ]);
    if (timeoutMs === undefined) gate.holdFor(outcome);
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = (): void => reject(ctx.signal.reason);
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
      void outcome.finally(() => ctx.signal.removeEventListener('abort', onAbort));
    });
    let made: Decision | 'timeout';
    try {
      made = await Promise.race([outcome, aborted]);
    } finally {
      waiting.delete(call.id);
      timer.abort();
      // An abort while waiting: the wait ends too, so the frozen clock runs again for the terminate.
      settle('timeout');
    }
    if (made === 'timeout') {
      const message = `The ${call.name} call was not approved within ${formatMs(timeoutMs!)}, so it was not run.`;
      emit({
        event: 'tool_approval',
        iteration: ctx.iteration,
        call_id: call.id,
        tool: call.name,
        decision: 'denied',
        by: 'timeout',
        reason: `no decision within ${formatMs(timeoutMs!)} of run time`,
        args,
        message,
        next: 'the model receives the denial as the call’s error result',
      });
      return { result: denial(call, message) };
    }
    const reason = made.reason ?? `no reason given by ${made.by}`;
    if (made.action === 'deny') {
      emit({
        event: 'tool_approval',
        iteration: ctx.iteration,
        call_id: call.id,
        tool: call.name,
        decision: 'denied',
        by: made.by,
        reason,
        args,
        message: made.message,
        next: 'the call does not run; the model receives the message as the call’s error result',
      });
      return { result: denial(call, made.message) };
    }
    if (made.action === 'edit') {
      emit({
        event: 'tool_approval',
        iteration: ctx.iteration,
        call_id: call.id,
        tool: call.name,
        decision: 'edited',
        by: made.by,
        reason,
        args,
        edited_args: made.args,
        next: 'the call runs with the edited arguments',
      });
      return executor.execute({ ...call, args: made.args, argsText: JSON.stringify(made.args) }, ctx);
    }
    emit({
      event: 'tool_approval',
      iteration: ctx.iteration,
      call_id: call.id,
      tool: call.name,
      decision: 'approved',
      by: made.by,
      reason,
      args,
      next: 'the call runs as the model wrote it',
    });
    return executor.execute(call, ctx);
  }

  return {
    executor: approved,
    decide(decision) {
      if (options.closed()) return;
      const target = decision.callId
        ? waiting.get(decision.callId)
        : waiting.size === 1
          ? [...waiting.values()][0]
          : undefined;
      if (!target) {
        const problem =
          waiting.size === 0
            ? 'no tool call is waiting for approval'
            : decision.callId
              ? `no call ${decision.callId} is waiting (waiting: ${[...waiting.keys()].join(', ')})`
              : `${waiting.size} calls are waiting: name one by callId (${[...waiting.keys()].join(', ')})`;
        emit({
          event: 'log',
          level: 'warn',
          message: `${decision.action} from ${decision.by} not applied: ${problem}`,
        });
        return;
      }
      target.decide(decision);
    },
  };
}

function denial(call: ToolCallPart, message: string): ToolResultPart {
  return { type: 'tool_result', callId: call.id, content: message, isError: true };
}

/** Which calls the config holds for approval, in words. */
export function describeApproval(config: ApprovalConfig): string {
  if (config.tools === 'all') return 'every tool call is approved by hand';
  if (config.tools === 'writes') return 'calls that change the workspace are approved by hand';
  return `calls to ${config.tools.join(', ')} are approved by hand`;
}
