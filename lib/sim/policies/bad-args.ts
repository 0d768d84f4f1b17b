import type { Random } from '@/lib/clock';
import type { Scenario } from '@/lib/tools/scenario';
import type { Policy } from '../types';
import { callHistory, callTurn, isSameCall, type CallRecord } from './history';
import { workerPlan } from './worker-plan';
import { decideWorkerStep, decisionTurn } from './worker';

/** Broken calls a conversation gets before the policy only sends valid arguments. */
const MAX_BAD = 3;

/** Argument text that breaks the tool's schema: a wrong type, a missing field, or cut-off JSON. */
function brokenArgs(name: string, args: Record<string, unknown>, random: Random): string | undefined {
  const path = typeof args.path === 'string' ? args.path : 'src';
  switch (name) {
    case 'read_file':
      return random.pick([
        JSON.stringify({ path: 42 }),
        JSON.stringify({ file: path }),
        `{"path": "${path}"`,
      ]);
    case 'search':
      return random.pick([JSON.stringify({ query: args.pattern }), JSON.stringify({ pattern: 7 })]);
    case 'edit_file':
      return random.pick([
        JSON.stringify({ path, old_string: args.old_string }),
        JSON.stringify({ path, old_string: args.old_string, new_string: null }),
      ]);
    case 'list_files':
      return JSON.stringify({ path: 7 });
    default:
      return undefined;
  }
}

/**
 * Sends arguments that break the schema, then the valid call after the error, up to MAX_BAD
 * times in a conversation; the work gets done in between.
 */
export function createBadArgsPolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  return (request, random) => {
    const history = callHistory(request.messages);
    const plan = workerPlan({ hints: scenario.hints, request });
    // Any call that is not one of the worker's own counts, so the count always grows.
    const isBad = (r: CallRecord): boolean => !plan.some((s) => isSameCall(r, s.name, s.args));
    const badCount = history.filter(isBad).length;
    const last = history[history.length - 1];
    const lastWasBad = last !== undefined && isBad(last);
    const decision = decideWorkerStep({ scenario, request });
    if (decision.kind === 'call' && badCount < MAX_BAD && !lastWasBad) {
      const broken = brokenArgs(decision.name, decision.args, random);
      if (broken !== undefined) {
        const thinking = request.thinking ? `Call ${decision.name} for the next step.` : undefined;
        return callTurn({ name: decision.name, args: broken, thinking });
      }
    }
    return decisionTurn({ decision, request, random });
  };
}
