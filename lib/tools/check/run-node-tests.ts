import type { CheckResult, Scenario } from '../scenario';
import type { Workspace } from '../types';
import type { SlotShare } from './fair-slots';
import {
  checkClock,
  runSandboxed,
  type CheckClock,
  type SandboxOutcome,
  type SandboxReport,
} from './run-sandboxed';
import { DEFAULT_SANDBOX_LIMITS, MAX_TESTS, type SandboxLimits } from './sandbox-limits';

/** CPU-time limit on one check's tests (wall time where there is no /proc): an infinite loop in the model's edit must not hang the run. */
export const CHECK_TIMEOUT_MS = DEFAULT_SANDBOX_LIMITS.timeMs;

/**
 * Executes the workspace's own JavaScript tests in a sandboxed child process (see
 * run-sandboxed.ts), so an edit really fixes (or breaks) the code and a hostile edit cannot
 * reach the server: only the workspace's .js/.cjs/.json files go in, as strings, and only the
 * runner's report comes out. A check stopped from outside is a FAIL that says why; one the
 * machine was too busy to finish says that (`stopped: 'host_overloaded'`), never a timeout.
 */
export async function runNodeTests(options: {
  workspace: Workspace;
  entries: string[];
  limits?: Partial<SandboxLimits> & { backstopMs?: number };
  signal?: AbortSignal;
  /** The run the check is for (the pool's fair share). */
  share?: SlotShare;
  /** Called with each child's pid as its request is sent (tests stop the child to starve it). */
  onChild?: (pid: number) => void;
}): Promise<CheckResult> {
  const { workspace, entries } = options;
  const missing = entries.filter((e) => workspace.read(e) === undefined);
  if (missing.length > 0) return { passed: false, output: `Test file missing: ${missing.join(', ')}` };
  const files: Record<string, string> = {};
  for (const path of workspace.paths()) {
    if (/\.(js|cjs|json)$/.test(path)) files[path] = workspace.read(path) ?? '';
  }
  const outcome = await runSandboxed({
    files,
    entries,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.share !== undefined ? { share: options.share } : {}),
    ...(options.onChild ? { onChild: options.onChild } : {}),
  });
  if (outcome.kind === 'report') {
    const { report } = outcome;
    const limitMs = options.limits?.timeMs ?? CHECK_TIMEOUT_MS;
    return {
      passed: isPass(report),
      output: formatReport(report, limitMs, checkClock()),
      results: report.results,
      ...(report.timedOut ? { stopped: 'time_limit' as const } : {}),
    };
  }
  if (outcome.kind === 'wall_backstop')
    return { passed: false, output: describeStop(outcome), stopped: 'host_overloaded' };
  return { passed: false, output: describeStop(outcome), stopped: outcome.kind };
}

/** "2000 ms of CPU time", or "2000 ms" where the limit is wall time. */
function limitText(limitMs: number, clock: CheckClock): string {
  return clock === 'cpu' ? `${limitMs} ms of CPU time` : `${limitMs} ms`;
}

/** A scenario's check that runs these test files (`options.entries`, when given, instead: the verdict's hidden tests). */
export function nodeTestsCheck(tests: readonly string[]): Scenario['check'] {
  return (workspace, options = {}) => {
    const { entries, signal, share } = options;
    return runNodeTests({
      workspace,
      entries: [...(entries ?? tests)],
      ...(signal ? { signal } : {}),
      ...(share !== undefined ? { share } : {}),
    });
  };
}

function describeStop(outcome: Exclude<SandboxOutcome, { kind: 'report' }>): string {
  switch (outcome.kind) {
    case 'time_limit':
      return `Tests timed out: the test process used its ${limitText(outcome.limitMs, outcome.clock)} and was killed (an infinite loop?).`;
    case 'wall_backstop':
      return (
        `Tests not finished: the machine is overloaded. The test process got too little CPU to finish or reach its time limit ` +
        `within ${outcome.backstopMs} ms of wall time, on each of ${outcome.tries} tries; what the tests would say is unknown.`
      );
    case 'memory_limit':
      return `Tests ran out of memory: the test process exceeded its ${outcome.limitMb} MB memory limit and was killed (a runaway allocation?).`;
    case 'too_large':
      return `Tests not run: the workspace's JavaScript is ${outcome.bytes} bytes, over the check's ${outcome.limitBytes}-byte limit.`;
    case 'aborted':
      return 'Tests not finished: the run was aborted.';
    case 'crashed':
      return `Test run crashed: ${outcome.detail}.`;
  }
}

function overCap(report: SandboxReport): boolean {
  return report.registered > MAX_TESTS;
}

function isPass(report: SandboxReport): boolean {
  return (
    !report.timedOut &&
    !overCap(report) &&
    report.loadErrors.length === 0 &&
    report.results.length > 0 &&
    report.results.every((r) => r.ok)
  );
}

function formatReport(report: SandboxReport, limitMs: number, clock: CheckClock): string {
  const lines: string[] = [];
  // First, so a clipped report (the verdict keeps 2,000 characters) still says why it failed.
  if (overCap(report))
    lines.push(
      `${report.registered} tests registered, over the check's cap of ${MAX_TESTS}: the check fails (only the first ${MAX_TESTS} ran).`,
    );
  for (const e of report.loadErrors) lines.push(`✗ could not load ${e}`);
  for (const r of report.results)
    lines.push(r.ok ? `✓ ${r.name}` : `✗ ${r.name}\n    ${r.error ?? 'failed'}`);
  const failed = report.results.filter((r) => !r.ok).length;
  if (report.results.length === 0 && report.loadErrors.length === 0 && !report.timedOut)
    lines.push('No tests were found.');
  if (report.timedOut)
    lines.push(
      `Tests timed out after ${limitText(limitMs, clock)} (an infinite loop?); later tests did not run.`,
    );
  lines.push(
    `${report.results.length - failed} passed, ${failed} failed${report.loadErrors.length ? `, ${report.loadErrors.length} files failed to load` : ''}`,
  );
  if (report.logs.length > 0) lines.push('console output:', ...report.logs.map((l) => `  ${l}`));
  return lines.join('\n');
}
