import type { EventOf } from '@/lib/protocol';
import { defineMechanism, type HookContext, type NestedLoopOutcome } from '@/lib/engine/mechanism-port';
import { DEFAULTS, ID } from './defaults';

export { MATRIX } from './matrix';

/** Its slice of the config. */
export interface SubagentsConfig {
  offered: boolean;
  turns: number;
  attempts: number;
  shared: boolean;
  retries: number;
  model: string | undefined;
}

/** The tool the model delegates with. */
export const DELEGATE_TOOL = {
  name: 'delegate',
  description:
    'Hand one part of the task to a sub-agent: a fresh agent with the same tools and a budget of its own, which works on `task` alone and answers with what it found or did. It sees nothing of this conversation. Several calls in one turn run side by side.',
  inputSchema: {
    type: 'object',
    properties: {
      task: {
        type: 'string',
        description: 'What the sub-agent should do, said in full: it sees nothing else.',
      },
    },
    required: ['task'],
    additionalProperties: false,
  },
  parallelSafe: true,
};

/** A child's system prompt: who it is, and what it is for. */
export function childSystem(child: string): string {
  return `You are sub-agent ${child}: another agent handed you one part of its task. Work on that part alone with the tools you have, then answer briefly with what you found or did.`;
}

type End = Pick<EventOf<'subagent_end'>, 'outcome' | 'next' | 'why'>;

/** What the parent does about a child's end: every branch says why. */
export function decideEnd(
  o: NestedLoopOutcome,
  s: {
    child: string;
    tries: number;
    config: SubagentsConfig;
    parentModel: string;
    fellBack: boolean;
    /** The repeated calls the child's loop guard blocked (its tool_guard events). */
    blocked: number;
    /** The child's last model call failed (a model_error after its last llm_call): its vendor, not its work, ended it. */
    lastCallFailed?: boolean;
  },
): End {
  const { child, tries, config } = s;
  const said = o.message ? ` (${o.message})` : '';
  // An attempt budget (or run time) spent retrying calls that kept failing is the vendor's doing:
  // another try on the same failing model would spend it again, one on another model may not.
  if ((o.reason === 'attempt_budget' || o.reason === 'run_time_budget') && s.lastCallFailed)
    return vendorFailed(
      `${said}, until its ${o.reason === 'attempt_budget' ? 'attempt budget' : 'run time'} ran out`,
    );
  switch (o.reason) {
    case 'end_turn':
      return {
        outcome: 'answered',
        next: 'accept',
        why: `${child} answered after ${o.requests} ${o.requests === 1 ? 'request' : 'requests'}: its answer is the delegate call's result`,
      };
    case 'max_iterations':
    case 'cost_budget':
    case 'run_time_budget':
    case 'attempt_budget':
      if (s.blocked > 0)
        return {
          outcome: 'looped',
          next: 'give_up',
          why: `${child} kept making the same call (its loop guard blocked ${s.blocked} ${s.blocked === 1 ? 'repeat' : 'repeats'}) until its budget ran out${said}: it would loop again, so the parent goes on without it and the call's result says so`,
        };
      return {
        outcome: 'budget_spent',
        next: 'give_up',
        why: `${child} spent its budget without answering${said}${o.reason === 'attempt_budget' && config.shared ? "; its requests were the run's own (shared attempt budget), so the run's budget is spent with it" : ''}: another try would spend as much again, so the parent goes on without it and the call's result says so`,
      };
    case 'tool_halt':
      return {
        outcome: 'looped',
        next: 'give_up',
        why: `the loop guard stopped ${child}${said}: it would loop again, so the parent goes on without it and the call's result says so`,
      };
    case 'retries_exhausted':
    case 'model_error':
      return vendorFailed(said);
    default:
      return {
        outcome: 'stopped',
        next: 'give_up',
        why: `${child} ended ${o.reason}${said}: the parent goes on without it and the call's result says so`,
      };
  }

  function vendorFailed(said: string): End {
    if (o.model !== s.parentModel && !s.fellBack)
      return {
        outcome: 'vendor_failed',
        next: 'fallback',
        why: `${child}'s model ${o.model} failed it${said}: it runs again on the run's own model, ${s.parentModel}`,
      };
    if (tries <= config.retries)
      return {
        outcome: 'vendor_failed',
        next: 'retry',
        why: `${child}'s model calls failed${said}: it runs again with a fresh seed (retry ${tries} of ${config.retries})`,
      };
    return {
      outcome: 'vendor_failed',
      next: 'give_up',
      why: `${child}'s model calls failed${said} and ${config.retries === 0 ? 'child retries are off' : `its ${config.retries === 1 ? 'one retry is' : `${config.retries} retries are`} spent`}: the parent goes on without it and the call's result says so`,
    };
  }
}

/**
 * Sub-agents on the mechanism port: with `tools.delegate` on, the model is offered a delegate
 * tool; each call starts a child loop (the same engine, in the run's process) with the call's
 * task, the run's tools on a runner of its own, a turn budget and an attempt account of its own
 * (or the run's, `tools.subagentSharesAttempts`). Every child event goes into the run's log
 * inside a subagent_event naming the child and the call; when the child ends, a subagent_end
 * says how and what the parent does: accept its answer, run it again (a fallback to the run's
 * model when its own failed, or a retry), or give up with the reason as the call's result.
 */
export const ENGINE = defineMechanism<SubagentsConfig>({
  id: ID,
  configOf: (recovery) => ({
    offered: recovery.tools.delegate ?? DEFAULTS.delegate,
    turns: recovery.tools.subagentTurns ?? DEFAULTS.subagentTurns,
    attempts: recovery.tools.subagentAttempts ?? DEFAULTS.subagentAttempts,
    shared: recovery.tools.subagentSharesAttempts ?? DEFAULTS.subagentSharesAttempts,
    retries: recovery.tools.subagentRetries ?? DEFAULTS.subagentRetries,
    model: recovery.tools.subagentModel,
  }),
  create: () => {
    let children = 0;
    let childrenRequests = 0;
    return {
      ownTools: (config) => (config.offered ? [DELEGATE_TOOL] : []),
      async runTool(ctx: HookContext<SubagentsConfig>, { call, model: parentModel, nested }) {
        const task = typeof call.args?.task === 'string' ? call.args.task.trim() : '';
        if (!task)
          return {
            type: 'tool_result',
            callId: call.id,
            content:
              'Error: delegate needs {"task": "<what the sub-agent should do>"}: no sub-agent was started.',
            isError: true,
          };
        children += 1;
        const child = `c${children}`;
        const { config, iteration } = ctx;
        const stamp = { iteration, child, call_id: call.id };
        let fellBack = false;
        for (let tries = 1; ; tries++) {
          const model = fellBack ? parentModel : (config.model ?? parentModel);
          const seedKey = `subagent:${call.id}:${tries}`;
          let blocked = 0;
          let lastCallFailed = false;
          ctx.emit({
            event: 'subagent_start',
            ...stamp,
            try: tries,
            task,
            model,
            max_turns: config.turns,
            max_attempts: config.shared ? 0 : config.attempts,
            shares_attempts: config.shared,
            seed_key: seedKey,
            why:
              tries === 1
                ? `the model delegated a task: ${child} runs it with ${config.turns} turns and ${config.shared ? "the run's own attempt budget" : `an attempt budget of its own (${config.attempts})`}`
                : `${child} runs again (try ${tries})${fellBack ? ` on the run's model ${parentModel}` : ''}`,
          });
          const outcome = await nested({
            task,
            system: childSystem(child),
            model,
            maxIterations: config.turns,
            attempts: config.shared ? 'shared' : config.attempts,
            seedKey,
            emit: (inner) => {
              if (inner.event === 'tool_guard' && inner.kind === 'blocked') blocked += 1;
              if (inner.event === 'model_error') lastCallFailed = true;
              if (inner.event === 'llm_call' && !inner.background) lastCallFailed = false;
              return ctx.emit({ event: 'subagent_event', ...stamp, try: tries, inner });
            },
          });
          childrenRequests += outcome.requests;
          const end = decideEnd(outcome, {
            child,
            tries,
            config,
            parentModel,
            fellBack,
            blocked,
            lastCallFailed,
          });
          ctx.emit({
            event: 'subagent_end',
            ...stamp,
            try: tries,
            ...end,
            reason: outcome.reason,
            ...(outcome.message !== undefined ? { message: outcome.message } : {}),
            model: outcome.model,
            requests: outcome.requests,
            children_requests: childrenRequests,
            usd: outcome.totals.usd,
            input_tokens: outcome.totals.inputTokens,
            output_tokens: outcome.totals.outputTokens,
          });
          if (end.next === 'accept')
            return { type: 'tool_result', callId: call.id, content: outcome.answer ?? '', isError: false };
          if (end.next === 'give_up')
            return {
              type: 'tool_result',
              callId: call.id,
              content: `Sub-agent ${child} did not finish: ${end.why}.`,
              isError: true,
            };
          if (end.next === 'fallback') fellBack = true;
        }
      },
    };
  },
});
