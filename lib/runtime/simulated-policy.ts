import type { RunConfig } from '@/lib/protocol';
import { createFreeTaskPolicy, createPolicy, type Policy } from '@/lib/sim';
import type { Scenario } from '@/lib/tools';

/**
 * The simulated model: the one the config names, else the scenario's own — unless the task
 * was replaced by one the scenario has no script for.
 */
export function simulatedPolicy(config: RunConfig, scenario: Scenario): Policy {
  const { answers, subagents } = config.faults;
  if (config.policy) return createPolicy(config.policy, scenario, answers, subagents);
  if (config.task !== undefined && config.task.trim() !== scenario.task.trim())
    return createFreeTaskPolicy(scenario, answers, subagents);
  return createPolicy(scenario.policy, scenario, answers, subagents);
}
