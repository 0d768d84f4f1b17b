import type { Random } from '@/lib/clock';
import type { Scenario } from '@/lib/tools/scenario';
import type { Policy, PolicyRequest, PolicyTurn } from '../types';
import { answerTurn, callHistory, callTurn, isSameCall, type CallRecord } from './history';
import { thinkingFor, type Intent } from './thinking-lines';
import { checkPassed, workerPlan, type PlanStep } from './worker-plan';

/** Total failed plan calls before the worker stops and says so (it never loops forever). */
const MAX_ERRORS = 5;
/** Calls in one conversation after which the worker wraps up whatever the state. */
const MAX_CALLS = 30;

export type WorkerDecision =
  | { kind: 'call'; name: string; args: Record<string, unknown>; intent: Intent }
  | { kind: 'answer'; text: string; intent: Intent };

interface Progress {
  cursor: number;
  fails: number;
  errors: number;
  done: boolean;
  gaveUp: string | undefined;
  /** The last history record was a failed call of the current step. */
  lastFailed: CallRecord | undefined;
}

/** Replays the conversation against the plan to find where the work stands. */
function progress(plan: PlanStep[], history: CallRecord[]): Progress {
  const p: Progress = {
    cursor: 0,
    fails: 0,
    errors: 0,
    done: false,
    gaveUp: undefined,
    lastFailed: undefined,
  };
  for (const record of history) {
    const step = plan[p.cursor];
    if (!step || !record.result) break;
    if (!isSameCall(record, step.name, step.args)) continue;
    p.lastFailed = undefined;
    const kind = step.intent.kind;
    if (kind === 'check-before') {
      // The first check is expected to fail; if it already passes there is nothing to fix.
      if (checkPassed(record.result)) p.done = true;
      p.cursor++;
    } else if (kind === 'check-after') {
      if (checkPassed(record.result)) p.cursor++;
      else if (++p.fails >= 2) p.gaveUp = 'the check still fails after the fix';
      else p.lastFailed = record;
    } else if (!record.result.isError) {
      p.cursor++;
      p.fails = 0;
    } else {
      p.errors++;
      p.fails++;
      p.lastFailed = record;
      // A failed edit may mean the fix is already in place: let the final check decide.
      if (kind === 'edit' || p.fails >= 2) {
        p.cursor++;
        p.fails = 0;
        p.lastFailed = undefined;
      }
    }
    if (p.done || p.gaveUp) break;
  }
  if (p.errors >= MAX_ERRORS) p.gaveUp = 'too many tool calls failed';
  return p;
}

/**
 * The worker's next step: the next plan call, a re-list after an error, or the final answer.
 * Exported so misbehaving policies can misbehave first and then get the work done.
 */
export function decideWorkerStep(options: { scenario: Scenario; request: PolicyRequest }): WorkerDecision {
  const { hints } = options.scenario;
  const plan = workerPlan({ hints, request: options.request });
  const history = callHistory(options.request.messages);
  const p = progress(plan, history);
  if (p.gaveUp || history.length >= MAX_CALLS) {
    const reason = p.gaveUp ?? 'the conversation ran too long';
    return {
      kind: 'answer',
      text: `I could not finish the task: ${reason}. ${hints.fix ? `The intended fix is in ${hints.fix.path}.` : ''}`.trim(),
      intent: { kind: 'give-up', reason },
    };
  }
  const step = plan[p.cursor];
  if (p.done || !step) return { kind: 'answer', text: hints.summary, intent: { kind: 'answer' } };

  const last = history[history.length - 1];
  if (
    p.lastFailed &&
    last === p.lastFailed &&
    step.name !== 'list_files' &&
    step.name !== 'run_check' &&
    plan.some((s) => s.name === 'list_files')
  ) {
    return { kind: 'call', name: 'list_files', args: {}, intent: { kind: 'relist' } };
  }
  const intent: Intent = p.lastFailed ? { kind: 'retry', tool: step.name } : step.intent;
  return { kind: 'call', name: step.name, args: step.args, intent };
}

const PREAMBLES = ['Let me take a look.', 'Checking that now.', 'On it.', 'Next step.'];

/** Renders a decision as a turn: thinking when asked for, sometimes a short preamble. */
export function decisionTurn(options: {
  decision: WorkerDecision;
  request: PolicyRequest;
  random: Random;
}): PolicyTurn {
  const { decision, request, random } = options;
  const thinking = request.thinking ? thinkingFor({ intent: decision.intent, random }) : undefined;
  if (decision.kind === 'answer') return answerTurn({ text: decision.text, thinking });
  const preamble = random.next() < 0.25 ? random.pick(PREAMBLES) : undefined;
  return callTurn({ name: decision.name, args: decision.args, thinking, text: preamble });
}

/** Does the scenario's work for real with the tools the request offers. */
export function createWorkerPolicy(options: { scenario: Scenario }): Policy {
  return (request, random) =>
    decisionTurn({ decision: decideWorkerStep({ scenario: options.scenario, request }), request, random });
}
