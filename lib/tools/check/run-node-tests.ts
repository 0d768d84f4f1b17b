import vm from 'node:vm';
import type { CheckResult } from '../scenario';
import type { Workspace } from '../types';
import { RUNNER_SOURCE } from './runner-source';

interface Report {
  results: { name: string; ok: boolean; error?: string }[];
  loadErrors: string[];
  logs: string[];
}

/** Wall-clock cap on one check: an infinite loop in the model's edit must not hang the run. */
export const CHECK_TIMEOUT_MS = 1000;

/**
 * Executes the workspace's own JavaScript tests in a fresh node:vm context, so an edit
 * really fixes (or breaks) the code. The context has a null prototype and receives only
 * strings: the usual `this.constructor.constructor('return process')` escape finds nothing.
 * (node:vm is not a security boundary; this keeps honest mistakes contained, not attackers.)
 */
export function runNodeTests(options: { workspace: Workspace; entries: string[]; timeoutMs?: number }): CheckResult {
  const { workspace, entries, timeoutMs = CHECK_TIMEOUT_MS } = options;
  const missing = entries.filter((e) => workspace.read(e) === undefined);
  if (missing.length > 0) return { passed: false, output: `Test file missing: ${missing.join(', ')}` };
  const files: Record<string, string> = {};
  for (const path of workspace.paths()) {
    if (/\.(js|cjs|json)$/.test(path)) files[path] = workspace.read(path) ?? '';
  }
  const context = vm.createContext(Object.create(null) as Record<string, unknown>, {
    microtaskMode: 'afterEvaluate',
  }) as Record<string, unknown>;
  let report: Report;
  try {
    const run = vm.runInContext(RUNNER_SOURCE, context, { filename: 'check-runner.js' }) as (a: string, b: string) => unknown;
    const script = new vm.Script('__run(__files, __entries)', { filename: 'check.js' });
    context.__run = run;
    context.__files = JSON.stringify(files);
    context.__entries = JSON.stringify(entries);
    report = JSON.parse(String(script.runInContext(context, { timeout: timeoutMs }))) as Report;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const timedOut = (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    return {
      passed: false,
      output: timedOut ? `Tests timed out after ${timeoutMs} ms (an infinite loop?).` : `Test run crashed: ${message}`,
    };
  }
  return { passed: isPass(report), output: formatReport(report) };
}

function isPass(report: Report): boolean {
  return report.loadErrors.length === 0 && report.results.length > 0 && report.results.every((r) => r.ok);
}

function formatReport(report: Report): string {
  const lines: string[] = [];
  for (const e of report.loadErrors) lines.push(`✗ could not load ${e}`);
  for (const r of report.results) lines.push(r.ok ? `✓ ${r.name}` : `✗ ${r.name}\n    ${r.error ?? 'failed'}`);
  const failed = report.results.filter((r) => !r.ok).length;
  if (report.results.length === 0 && report.loadErrors.length === 0) lines.push('No tests were found.');
  lines.push(`${report.results.length - failed} passed, ${failed} failed${report.loadErrors.length ? `, ${report.loadErrors.length} files failed to load` : ''}`);
  if (report.logs.length > 0) lines.push('console output:', ...report.logs.slice(0, 50).map((l) => `  ${l}`));
  return lines.join('\n');
}
