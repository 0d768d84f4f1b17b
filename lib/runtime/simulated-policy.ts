import type { SimulatedBehaviour } from '@/lib/engine/mechanism-port';
import type { RunConfig } from '@/lib/protocol';
import { MODULE_SIM_BEHAVIOURS } from '@/lib/mechanisms/modules/engine';
import { createFreeTaskPolicy, createPolicy, type AnswerFaultReport, type Policy } from '@/lib/sim';
import type { Scenario } from '@/lib/tools';

/**
 * The simulated model: the one the config names, else the scenario's own — unless the task
 * was replaced by one the scenario has no script for. `onAnswerFault` hears each answer fault
 * (the fault plan's `answers`) as it strikes, or as the vendor's guarantee rules it out. Each
 * mechanism module's simulated-model behaviour for the run (lib/mechanisms/modules/engine.ts)
 * wraps it, in the list's order.
 */
export function simulatedPolicy(
  config: RunConfig,
  scenario: Scenario,
  onAnswerFault?: (report: AnswerFaultReport) => void,
  behaviours: readonly SimulatedBehaviour[] = MODULE_SIM_BEHAVIOURS,
): Policy {
  return behaviours.reduce<Policy>(
    (policy, behaviour) => {
      const layer = behaviour(config);
      return layer ? (request, random) => layer(request, random, () => policy(request, random)) : policy;
    },
    basePolicy(config, scenario, onAnswerFault),
  );
}

function basePolicy(
  config: RunConfig,
  scenario: Scenario,
  onAnswerFault?: (report: AnswerFaultReport) => void,
): Policy {
  const { answers, subagents } = config.faults;
  if (config.policy) return createPolicy(config.policy, scenario, answers, onAnswerFault, subagents);
  if (config.task !== undefined && config.task.trim() !== scenario.task.trim())
    return createFreeTaskPolicy(scenario, answers, onAnswerFault, subagents);
  return createPolicy(scenario.policy, scenario, answers, onAnswerFault, subagents);
}
