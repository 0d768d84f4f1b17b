import type { Scenario } from '../scenario';
import { fixFailingTest } from './fix-failing-test';
import { growingContext } from './growing-context';
import { hugeLog } from './huge-log';
import { longProject } from './long-project';

/** Every scenario a run can name, default first. */
const SCENARIOS: readonly Scenario[] = [fixFailingTest, hugeLog, longProject, growingContext];

export const DEFAULT_SCENARIO_ID = fixFailingTest.id;

export function listScenarios(): Scenario[] {
  return [...SCENARIOS];
}

/** The scenario with this id, or undefined (callers turn that into a 4xx naming the ids). */
export function getScenario(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id);
}
