import type { Scenario } from '@/lib/tools/scenario';
import type { Policy } from '../types';
import { canonicalJson } from './history';
import { thinkingFor } from './thinking-lines';
import { decideWorkerStep, decisionTurn } from './worker';
import { workerPlan } from './worker-plan';

/** The tools this model asks for several at once: the ones that only look. */
const LOOKING = new Set(['list_files', 'read_file', 'search']);

/**
 * Does the task like the worker, but when its next step only looks (list, read, search) it
 * asks in one turn for that step and every looking step after it, as models with parallel
 * tool use do. A call that failed is asked for again on its own.
 */
export function createParallelReadsPolicy(options: { scenario: Scenario }): Policy {
  const { scenario } = options;
  return (request, random) => {
    const decision = decideWorkerStep({ scenario, request });
    if (
      decision.kind !== 'call' ||
      !LOOKING.has(decision.name) ||
      decision.intent.kind === 'retry' ||
      decision.intent.kind === 'relist'
    ) {
      return decisionTurn({ decision, request, random });
    }
    const plan = workerPlan({ hints: scenario.hints, request });
    const start = plan.findIndex(
      (s) => s.name === decision.name && canonicalJson(s.args) === canonicalJson(decision.args),
    );
    const steps = [];
    for (let k = Math.max(start, 0); k < plan.length && LOOKING.has(plan[k]!.name); k++) steps.push(plan[k]!);
    if (steps.length < 2) return decisionTurn({ decision, request, random });
    return {
      ...(request.thinking ? { thinking: thinkingFor({ intent: decision.intent, random }) } : {}),
      text: `Let me look at ${steps.length} things at once.`,
      toolCalls: steps.map((s) => ({ name: s.name, argsText: JSON.stringify(s.args) })),
    };
  };
}
