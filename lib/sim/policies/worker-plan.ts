import type { ScenarioHints } from '@/lib/tools/scenario';
import type { PolicyRequest } from '../types';
import type { Intent } from './thinking-lines';

/** One planned tool call of the worker, with why it is made. */
export interface PlanStep {
  name: string;
  args: Record<string, unknown>;
  intent: Intent;
}

/**
 * The worker's route through a scenario: list → read hinted files → search → check (see it
 * fail) → edit → check (see it pass). A task with no fix is a free text task: a couple of
 * exploratory calls, then the answer. Steps whose tool is not offered are skipped.
 */
export function workerPlan(options: { hints: ScenarioHints; request: PolicyRequest }): PlanStep[] {
  const { hints } = options;
  const steps: PlanStep[] = [{ name: 'list_files', args: {}, intent: { kind: 'list' } }];
  for (const path of hints.read)
    steps.push({ name: 'read_file', args: { path }, intent: { kind: 'read', path } });
  if (hints.search)
    steps.push({
      name: 'search',
      args: { pattern: hints.search },
      intent: { kind: 'search', pattern: hints.search },
    });
  if (hints.fix) {
    steps.push({ name: 'run_check', args: {}, intent: { kind: 'check-before' } });
    steps.push({
      name: 'edit_file',
      args: { path: hints.fix.path, old_string: hints.fix.find, new_string: hints.fix.replace },
      intent: { kind: 'edit', path: hints.fix.path },
    });
    steps.push({ name: 'run_check', args: {}, intent: { kind: 'check-after' } });
  }
  const offered = new Set(options.request.tools.map((t) => t.name));
  const available = steps.filter((s) => offered.has(s.name));
  return hints.fix ? available : available.slice(0, 2);
}

/** Did a check's output say the test passed? Tool errors and any failure line count as no. */
export function checkPassed(result: { content: string; isError: boolean }): boolean {
  if (result.isError) return false;
  const verdict = /^\s*(PASS|FAIL)\b/.exec(result.content);
  if (verdict) return verdict[1] === 'PASS';
  const text = result.content.replace(/\b0 (failed|failing|failures?)\b/gi, '');
  return !/\bfail(ed|ing|s|ure)?\b|✗|\bassertion ?error\b/i.test(text);
}
