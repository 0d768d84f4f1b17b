import type { AnswerScorer, SimPolicyId } from '@/lib/protocol';
import type { SlotShare } from './check/fair-slots';
import type { Workspace } from './types';

/** One test the check ran: its name, the file that registered it ('' for the global test()), how it ended. */
export interface CheckTestResult {
  name: string;
  file: string;
  ok: boolean;
  error?: string;
}

/** What a scenario's check reports: did the workspace's test pass, and its output. */
export interface CheckResult {
  passed: boolean;
  output: string;
  /** Every test that ran, when the tests ran (absent when the check stopped before they could). */
  results?: CheckTestResult[];
  /**
   * Set when the check could not finish (its sandbox stopped it): a tool error, not a FAIL.
   * `host_overloaded`: the machine never gave the check the CPU to finish (its wall-clock
   * backstop stopped it on every try), so its answer is unknown and the run ends there.
   */
  stopped?: 'time_limit' | 'memory_limit' | 'too_large' | 'crashed' | 'aborted' | 'host_overloaded';
}

/**
 * A scenario is data: a task, a workspace, a check, the default simulated model policy and
 * the hints that policy follows to do the work for real.
 */
export interface Scenario {
  id: string;
  title: string;
  /** One line for pickers. */
  summary: string;
  task: string;
  /** The initial workspace: path → content. */
  files: Record<string, string>;
  /**
   * Runs the scenario's test against the workspace (no shell, no disk). Real work: the tests
   * run in a sandboxed child process, so this takes wall time; `signal` stops it. `share`
   * names the run the check is for: the sandbox pool shares its slots fairly among runs.
   * `entries` runs these test files instead of `tests` (the task verdict's hidden tests).
   */
  check(
    workspace: Workspace,
    options?: { signal?: AbortSignal; share?: SlotShare; entries?: readonly string[] },
  ): Promise<CheckResult>;
  /** What the check runs, in a few words (shown in run_check's description). */
  checkLabel?: string;
  /**
   * The test files the check runs, as shipped in `files`. The model can edit them (run_check
   * runs the workspace's copies); the task verdict runs these shipped copies against the final
   * workspace instead, so rewriting a test cannot make the task done.
   */
  tests: string[];
  /**
   * Every test each of `tests` registers, by name as the check reports it. The task verdict
   * requires each to have run, registered by that file, and passed: code under test that
   * keeps a shipped test from registering (or registers its own under the same name) does not
   * pass for it. scenarios.test.ts checks these lists against a run of the fixed workspace.
   * A test file not listed here passes when at least one test it registers ran and none failed.
   */
  testNames: Record<string, string[]>;
  /**
   * Tests only the task verdict runs: inputs the model never sees (not in `files`, the task,
   * the hints or any tool result), so code that special-cases the visible tests' inputs is
   * not judged done.
   */
  hidden: HiddenTests;
  policy: SimPolicyId;
  /** What the simulated worker policy needs to know to solve the task. */
  hints: ScenarioHints;
  /** Checks on the final answer (task.json's scorers), each a scorer of the verdict beside the tests. */
  scorers?: AnswerScorer[];
}

export interface ScenarioHints {
  /** Files worth reading first, in order. */
  read: string[];
  /** A pattern worth searching for. */
  search?: string;
  /** The fix: replace `find` with `replace` in `path`. */
  fix?: { path: string; find: string; replace: string };
  /** The final answer once the check passes. */
  summary: string;
}

/** A scenario's hidden tests: files the verdict adds to a copy of the final workspace and runs. */
export interface HiddenTests {
  /** path → content. */
  files: Record<string, string>;
  /** Every test each file registers, by name (the verdict requires each to run and pass); a file not listed passes when a test of it ran and none failed. */
  names: Record<string, string[]>;
}
