import type { Clock } from '@/lib/clock';
import type { TaskVerdict } from '@/lib/protocol';
import type { Scenario } from '@/lib/tools/scenario';
import type { Workspace } from '@/lib/tools/types';

export interface TaskJudgement {
  verdict: TaskVerdict;
  check: string;
  detail: string;
}

/** Longest check report kept in the event: the verdict is a label, the report its evidence. */
const DETAIL_CHARS = 2_000;

/**
 * The task verdict: the scenario's own check on the final workspace, apart from how the loop
 * ended — a model that says "I could not finish" ends its turn cleanly but leaves the tests
 * failing. The check is real work in the sandbox, so it holds the virtual clock; it takes no
 * run signal, since an aborted run is judged too (the sandbox bounds its time).
 */
export async function judgeTask(options: {
  scenario: Scenario;
  workspace: Workspace;
  clock: Clock;
  /** The task the run was given; a replaced task is not what the scenario's check tests. */
  task: string;
}): Promise<TaskJudgement> {
  const { scenario, workspace, clock, task } = options;
  const check = scenario.checkLabel ?? `${scenario.id} check`;
  if (task.trim() !== scenario.task.trim()) {
    return { verdict: 'not_checkable', check, detail: `the task was replaced; ${check} checks the scenario's own task` };
  }
  try {
    const result = await clock.hold(scenario.check(workspace));
    const detail = clip(result.output);
    if (result.stopped) return { verdict: 'not_checkable', check, detail: `the check was stopped (${result.stopped.replace('_', ' ')}): ${detail}` };
    return { verdict: result.passed ? 'done' : 'not_done', check, detail };
  } catch (error) {
    return { verdict: 'not_checkable', check, detail: `the check could not run: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function clip(text: string): string {
  return text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS)}… (${text.length - DETAIL_CHARS} more chars)` : text;
}
