import type { SimulatedBehaviour } from '@/lib/engine/mechanism-port';
import type { RunConfig } from '@/lib/protocol';
import { MODULE_SIM_BEHAVIOURS } from '@/lib/mechanisms/modules/engine';
import { createFreeTaskPolicy, createPolicy, type Policy } from '@/lib/sim';
import type { Scenario } from '@/lib/tools';

/**
 * The simulated model: the one the config names, else the scenario's own — unless the task
 * was replaced by one the scenario has no script for. Each mechanism module's simulated-model
 * behaviour for the run (lib/mechanisms/modules/engine.ts) wraps it, in the list's order.
 */
export function simulatedPolicy(
  config: RunConfig,
  scenario: Scenario,
  behaviours: readonly SimulatedBehaviour[] = MODULE_SIM_BEHAVIOURS,
): Policy {
  return behaviours.reduce<Policy>(
    (policy, behaviour) => {
      const layer = behaviour(config);
      return layer ? (request, random) => layer(request, random, () => policy(request, random)) : policy;
    },
    basePolicy(config, scenario),
  );
}

function basePolicy(config: RunConfig, scenario: Scenario): Policy {
  const answers = config.faults.answers;
  if (config.policy) return createPolicy(config.policy, scenario, answers);
  if (config.task !== undefined && config.task.trim() !== scenario.task.trim())
    return createFreeTaskPolicy(scenario, answers);
  return createPolicy(scenario.policy, scenario, answers);
}
