import { join } from 'node:path';
import type { Scenario } from '../scenario';
import { readTaskFiles, taskFromFiles } from '../tasks/load-task';

/**
 * Where the built-in tasks sit: lib/tools/tasks/builtin/ in the repository, one folder a scenario, in
 * the format anyone's task uses (docs/tasks.md), read by the same loader as `--task-dir`.
 */
export const BUILTIN_TASKS_DIR = join(process.cwd(), 'lib', 'tools', 'tasks', 'builtin');

/** A built-in scenario, read from its folder under tasks/ (the process runs from the repository). */
export function builtinScenario(id: string): Scenario {
  const dir = join(BUILTIN_TASKS_DIR, id);
  const scenario = taskFromFiles(readTaskFiles(dir), {
    name: id,
    where: `built-in task lib/tools/tasks/builtin/${id}`,
  });
  if (scenario.id !== id)
    throw new Error(`built-in task lib/tools/tasks/builtin/${id} names itself "${scenario.id}"`);
  return scenario;
}
