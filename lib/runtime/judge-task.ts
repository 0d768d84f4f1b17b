import type { Clock } from '@/lib/clock';
import type { ScorerResult, TaskVerdict, VerdictTests } from '@/lib/protocol';
import type { SlotShare } from '@/lib/tools/check/fair-slots';
import type { CheckResult, Scenario } from '@/lib/tools/scenario';
import type { Workspace } from '@/lib/tools/types';
import { createWorkspace } from '@/lib/tools/workspace';
import { scoreAnswer } from '@/lib/tools/tasks/score-answer';
import { judgeHiddenTests, unmetTests, type HiddenJudgement } from './verdict-tests';

export interface TaskJudgement {
  verdict: TaskVerdict;
  check: string;
  detail: string;
  /** Which copies of the scenario's test files were run: as shipped, or the workspace's own. */
  tests_run: VerdictTests;
  /** The scenario's test files the model changed or deleted (empty: none). */
  tests_edited: string[];
  /** Shipped tests, by name, that did not run (set when the shipped tests were judged). */
  tests_missing?: string[];
  /** How many hidden tests the verdict ran, and which failed or did not run (set when they ran). */
  hidden_tests?: number;
  hidden_failed?: string[];
  /** Each scorer's result with its reason: the visible tests, the hidden tests, the checks on the answer. */
  scorers: ScorerResult[];
}

/** Longest check report kept in the event: the verdict is a label, the report its evidence. */
const DETAIL_CHARS = 2_000;

/** The scenario's test files whose final content is not what the scenario shipped (deleted included). */
export function editedTests(scenario: Scenario, workspace: Workspace): string[] {
  return scenario.tests.filter((path) => workspace.read(path) !== scenario.files[path]);
}

/**
 * The final workspace with the scenario's test files put back as it shipped them: what the
 * verdict runs, so a model that rewrote a test to pass gets no credit for it. Every other file
 * (the code under test, new files) is the model's.
 */
export function withShippedTests(scenario: Scenario, workspace: Workspace): Workspace {
  const files: Record<string, string> = {};
  for (const path of workspace.paths()) files[path] = workspace.read(path) ?? '';
  for (const path of scenario.tests) {
    const shipped = scenario.files[path];
    if (shipped !== undefined) files[path] = shipped;
  }
  return createWorkspace({ files });
}

/**
 * The task verdict: the scenario's own check on the final workspace, apart from how the loop
 * ended — a model that says "I could not finish" ends its turn cleanly but leaves the tests
 * failing. By default the check runs the scenario's test files as shipped (`tests: 'shipped'`),
 * whatever the model did to them, and says which it edited; it then requires every shipped test
 * by name and runs the scenario's hidden tests (judgeShipped). With `tests: 'workspace'` it runs
 * the workspace's own tests as run_check does, and nothing more. Beside the tests, each of the
 * task's checks on the final answer (task.json's scorers) is scored; the verdict is done when
 * every scorer passed, and `scorers` carries each one's result and reason. The check is real work in the
 * sandbox, so it holds the virtual clock; it takes no run signal, since an aborted run is
 * judged too (the sandbox bounds its time).
 */
export async function judgeTask(options: {
  scenario: Scenario;
  workspace: Workspace;
  clock: Clock;
  /** The task the run was given; a replaced task is not what the scenario's check tests. */
  task: string;
  /** Which copies of the test files to run (the run config's `verdict.tests`). */
  tests?: VerdictTests;
  /** The run, so its verdict check takes the run's share of the check sandbox. */
  share?: SlotShare;
  /** The final answer (the model's last text), for the task's answer scorers; undefined: there was none. */
  answer?: string | undefined;
}): Promise<TaskJudgement> {
  const { scenario, workspace, clock, task } = options;
  const testsRun = options.tests ?? 'shipped';
  const check = scenario.checkLabel ?? `${scenario.id} check`;
  const seen = { tests_run: testsRun, tests_edited: editedTests(scenario, workspace) };
  const answers = (scenario.scorers ?? []).map((scorer, i) => scoreAnswer(scorer, i, options.answer));
  const unanswered = (reason: string): ScorerResult[] => [
    { id: 'visible_tests', kind: 'visible_tests', passed: null, reason },
    ...answers,
  ];
  if (task.trim() !== scenario.task.trim()) {
    const detail = `the task was replaced; ${check} checks the scenario's own task`;
    return { verdict: 'not_checkable', check, detail, ...seen, scorers: unanswered(detail) };
  }
  try {
    const judged = testsRun === 'shipped' ? withShippedTests(scenario, workspace) : workspace;
    const result = await clock.hold(
      scenario.check(judged, options.share !== undefined ? { share: options.share } : {}),
    );
    const detail = clip(result.output);
    if (result.stopped) {
      const stopped = `the check was stopped (${result.stopped.replace('_', ' ')}): ${detail}`;
      return { verdict: 'not_checkable', check, detail: stopped, ...seen, scorers: unanswered(stopped) };
    }
    if (testsRun === 'workspace') {
      const visible: ScorerResult = {
        id: 'visible_tests',
        kind: 'visible_tests',
        passed: result.passed,
        reason: `${check}, the workspace's own copies: ${testsLine(result)}`,
      };
      const scorers = [visible, ...answers];
      return { verdict: verdictOf(scorers), check, detail, ...seen, scorers };
    }
    return await judgeShipped({
      scenario,
      judged,
      clock,
      share: options.share,
      result,
      check,
      detail,
      seen,
      answers,
    });
  } catch (error) {
    const detail = `the check could not run: ${error instanceof Error ? error.message : String(error)}`;
    return { verdict: 'not_checkable', check, detail, ...seen, scorers: unanswered(detail) };
  }
}

/** Done when every scorer passed; not done when one failed. */
function verdictOf(scorers: readonly ScorerResult[]): TaskVerdict {
  return scorers.every((s) => s.passed === true) ? 'done' : 'not_done';
}

/** "4 of 4 passed", "1 of 4 failed", from the check's own results. */
function testsLine(result: CheckResult): string {
  const results = result.results ?? [];
  const failed = results.filter((r) => !r.ok).length;
  if (results.length === 0) return result.passed ? 'passed' : 'no test ran';
  return failed === 0
    ? `${results.length} of ${results.length} passed`
    : `${failed} of ${results.length} failed`;
}

/**
 * The verdict on the shipped tests: done only when the check passed, every shipped test ran by
 * name (registered by its own file) and passed, and every hidden test ran and passed.
 */
async function judgeShipped(options: {
  scenario: Scenario;
  judged: Workspace;
  clock: Clock;
  share: SlotShare | undefined;
  result: CheckResult;
  check: string;
  detail: string;
  seen: Pick<TaskJudgement, 'tests_run' | 'tests_edited'>;
  answers: ScorerResult[];
}): Promise<TaskJudgement> {
  const { scenario, result, check, seen, answers } = options;
  const { missing, failed } = unmetTests(scenario.testNames, result.results, scenario.tests);
  const missingNote =
    missing.length > 0
      ? `\nShipped tests that did not run: ${missing.map((n) => JSON.stringify(n)).join(', ')}.`
      : '';
  const hidden = await judgeHiddenTests({
    scenario,
    judged: options.judged,
    clock: options.clock,
    ...(options.share !== undefined ? { share: options.share } : {}),
  });
  const detail = `${options.detail}${missingNote}`;
  const visiblePassed = result.passed && missing.length === 0 && failed.length === 0;
  const visible: ScorerResult = {
    id: 'visible_tests',
    kind: 'visible_tests',
    passed: visiblePassed,
    reason: `${check} as shipped: ${testsLine(result)}${
      missing.length > 0
        ? `; ${missing.length} shipped test${missing.length === 1 ? '' : 's'} did not run`
        : ''
    }`,
  };
  const scorers = [visible, ...hiddenScorer(hidden), ...answers];
  if (hidden.kind === 'stopped')
    return {
      verdict: 'not_checkable',
      check,
      detail: `${hidden.detail}\n${detail}`,
      ...seen,
      tests_missing: missing,
      scorers,
    };
  return {
    verdict: verdictOf(scorers),
    check,
    detail: hidden.detail ? `${detail}\n${hidden.detail}` : detail,
    ...seen,
    tests_missing: missing,
    hidden_tests: hidden.total,
    hidden_failed: hidden.failed,
    scorers,
  };
}

/** The hidden tests as a scorer (none when the task has no hidden tests); its reason is the first line of their report. */
function hiddenScorer(hidden: HiddenJudgement): ScorerResult[] {
  if (hidden.kind === 'stopped')
    return [
      { id: 'hidden_tests', kind: 'hidden_tests', passed: null, reason: hidden.detail.split('\n')[0]! },
    ];
  if (hidden.total === 0 && hidden.detail === '') return [];
  return [
    {
      id: 'hidden_tests',
      kind: 'hidden_tests',
      passed: hidden.passed,
      reason: hidden.detail.split('\n')[0]!.replace(/^Hidden tests \(run by the verdict only\): /, ''),
    },
  ];
}

function clip(text: string): string {
  return text.length > DETAIL_CHARS
    ? `${text.slice(0, DETAIL_CHARS)}… (${text.length - DETAIL_CHARS} more chars)`
    : text;
}
