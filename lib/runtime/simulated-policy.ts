import type { RunConfig } from '@/lib/protocol';
import { createFreeTaskPolicy, createPolicy, type AnswerFaultReport, type Policy } from '@/lib/sim';
import type { Scenario } from '@/lib/tools';

/**
 * The simulated model: the one the config names, else the scenario's own — unless the task
 * was replaced by one the scenario has no script for. `onAnswerFault` hears each answer fault
 * (the fault plan's `answers`) as it strikes, or as the vendor's guarantee rules it out.
 */
export function simulatedPolicy(
  config: RunConfig,
  scenario: Scenario,
  onAnswerFault?: (report: AnswerFaultReport) => void,
): Policy {
  const answers = config.faults.answers;
  if (config.policy) return createPolicy(config.policy, scenario, answers, onAnswerFault);
  if (config.task !== undefined && config.task.trim() !== scenario.task.trim())
    return createFreeTaskPolicy(scenario, answers, onAnswerFault);
  return createPolicy(scenario.policy, scenario, answers, onAnswerFault);
}
