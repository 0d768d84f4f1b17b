import { createRandom } from '@/lib/clock';
import { RULE_DICE, RuleMatcher, type FaultPlanPosition } from '@/lib/faults';
import type { FaultPlan, RunConfig, RunEvent } from '@/lib/protocol';
import { FAULTS_STREAM } from './run-transport';

/** Where a fork takes up its parent's fault plan: the plan in force at the copied turn and how far it had gone. */
export interface ForkFaults {
  plan: FaultPlan;
  position: FaultPlanPosition;
  /** The same in words, for the fork's `forked_from` event. */
  why: string;
}

/**
 * The parent's fault plan as it stood at the end of the copied turns, found by playing the
 * parent's requests through the same rule matcher its fault wrapper used (same dice, from the
 * same seed): every HTTP request the log records — a `model_request`, or an `sdk_retry`, the
 * SDK's own resend — with the plan in force then (the config's, then each `set_faults`), the
 * request's kind and model, and its run time. What the matcher has spent by the end is what the
 * parent had spent: a `next N` rule that already fired N times does not fire again in the fork,
 * and rules on request numbers and on chance go on counting from the parent's requests.
 *
 * A parent that is itself a fork wrote where its own plan started (`forked_from.faults`): the
 * walk starts there and skips the events it copied from its own parent.
 */
export function forkFaults(options: {
  config: Pick<RunConfig, 'faults' | 'seed'>;
  copied: readonly RunEvent[];
  atTurn: number;
}): ForkFaults {
  const { config, copied } = options;
  const dice = createRandom(config.seed).fork(FAULTS_STREAM).fork(RULE_DICE);
  let plan = config.faults;
  let matcher = new RuleMatcher(dice);
  let before = 0;
  let requests = 0;
  let skip = 0;
  let model: string | undefined;
  const request = (background: boolean, now: number): void => {
    requests += 1;
    matcher.match({ plan, requestNo: before + requests, background, now, model });
  };
  for (const [i, event] of copied.entries()) {
    if (skip > 0) {
      skip -= 1;
      continue;
    }
    if (event.event === 'forked_from' && i === 0 && event.faults) {
      // The parent is a fork: its plan started where its forked_from says; the events it copied are counted there.
      before = event.faults.requests_before;
      matcher = new RuleMatcher(dice, event.faults.spent);
      skip = event.copied_events;
    } else if (event.event === 'control' && event.action === 'set_faults' && event.faults) {
      plan = event.faults;
    } else if (event.event === 'model_request') {
      model = event.model;
      request(event.background, event.ts);
    } else if (event.event === 'sdk_retry') {
      // The resend goes out after the SDK's wait.
      request(event.background, event.ts + event.wait_ms);
    }
  }
  const position = { requestsBefore: before + requests, spent: matcher.spent() };
  return { plan, position, why: describePosition(plan, position, options.atTurn) };
}

function describePosition(plan: FaultPlan, position: FaultPlanPosition, atTurn: number): string {
  const rules = plan.rules.filter((r) => r.enabled !== false);
  const n = position.requestsBefore;
  const head = `the fork takes up the parent's fault plan as it stood after turn ${atTurn}, ${n} model request${n === 1 ? '' : 's'} in`;
  if (rules.length === 0)
    return `${head}: no fault rule was on then, so none fires unless one is switched on`;
  const spent = rules.flatMap((rule) => {
    if (rule.when.kind !== 'next') return [];
    const used = position.spent[rule.id] ?? 0;
    const name = rule.label ?? rule.id;
    return [
      used >= rule.when.count
        ? `"${name}" spent (${used} of ${rule.when.count}), so it does not fire again`
        : `"${name}" has ${rule.when.count - used} of ${rule.when.count} left`,
    ];
  });
  const counted = rules.some((r) => r.when.kind === 'requests' || r.when.kind === 'probability')
    ? `; rules on request numbers and chance count on from the parent's requests (the fork's first request is request ${n + 1} of the plan)`
    : '';
  return `${head}: ${spent.length > 0 ? spent.join('; ') : 'no rule counts its hits'}${counted}`;
}
