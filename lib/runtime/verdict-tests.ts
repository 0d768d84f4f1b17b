import type { Clock } from '@/lib/clock';
import type { SlotShare } from '@/lib/tools/check/fair-slots';
import type { CheckTestResult, Scenario } from '@/lib/tools/scenario';
import type { Workspace } from '@/lib/tools/types';
import { createWorkspace } from '@/lib/tools/workspace';

/** Longest error kept per failed hidden test in the verdict's detail, and the longest hidden-tests part of it (every name is in `hidden_failed`). */
const ERROR_CHARS = 300;
const DETAIL_CHARS = 2_000;

/**
 * The expected tests (file → names) that did not run as expected: `missing`, no test of that
 * name registered by that file ran (a test of the same name from another file does not count);
 * `failed`, one ran and failed. Names come back in the order the scenario lists them, then the
 * failed tests of files it gives no names for.
 */
export function unmetTests(
  expected: Record<string, string[]>,
  results: readonly CheckTestResult[] | undefined,
  /** Every test file the check loaded: one `expected` does not list passes when a test it registered ran and none failed. */
  files: readonly string[] = [],
): { missing: string[]; failed: string[] } {
  const missing: string[] = [];
  const failed: string[] = [];
  for (const [file, names] of Object.entries(expected)) {
    for (const name of names) {
      const ran = (results ?? []).filter((r) => r.file === file && r.name === name);
      if (ran.length === 0) missing.push(name);
      else if (ran.some((r) => !r.ok)) failed.push(name);
    }
  }
  for (const file of files) {
    if (Object.hasOwn(expected, file)) continue;
    const ran = (results ?? []).filter((r) => r.file === file);
    if (ran.length === 0) missing.push(`every test of ${file}`);
    for (const r of ran) if (!r.ok && !failed.includes(r.name)) failed.push(r.name);
  }
  return { missing, failed };
}

/** What the verdict's hidden tests found: how many there were, which failed or did not run, and whether the check passed. */
export type HiddenJudgement =
  | { kind: 'ran'; total: number; failed: string[]; passed: boolean; detail: string }
  | { kind: 'stopped'; detail: string };

/**
 * Runs the scenario's hidden tests against the model's final code: their files are added to a
 * copy of the workspace the verdict judged (so nothing the run sees holds them), and only they
 * are loaded as tests. A hidden test failed when it ran and failed, or never ran (code that
 * keeps it from registering). Any other test that failed in the hidden check (one the model's
 * code registered) is named in the detail and keeps the hidden check from passing.
 */
export async function judgeHiddenTests(options: {
  scenario: Scenario;
  judged: Workspace;
  clock: Clock;
  share?: SlotShare;
}): Promise<HiddenJudgement> {
  const { scenario, judged, clock } = options;
  const { files: hiddenFiles, names } = scenario.hidden;
  const entries = Object.keys(hiddenFiles);
  const declared = Object.values(names).reduce((n, list) => n + list.length, 0);
  if (entries.length === 0) return { kind: 'ran', total: 0, failed: [], passed: true, detail: '' };
  const files: Record<string, string> = {};
  for (const path of judged.paths()) files[path] = judged.read(path) ?? '';
  Object.assign(files, hiddenFiles);
  const result = await clock.hold(
    scenario.check(createWorkspace({ files }), {
      entries,
      ...(options.share !== undefined ? { share: options.share } : {}),
    }),
  );
  if (result.stopped)
    return {
      kind: 'stopped',
      detail: `the hidden tests were stopped (${result.stopped.replace('_', ' ')}): ${result.output.slice(0, 500)}`,
    };
  const results = result.results ?? [];
  const { missing, failed } = unmetTests(names, results, entries);
  // A hidden file task.json gives no names for counts every test it registered.
  const unnamed = (r: CheckTestResult): boolean => entries.includes(r.file) && !Object.hasOwn(names, r.file);
  const total = declared + results.filter(unnamed).length;
  const expected = (r: CheckTestResult): boolean =>
    unnamed(r) || (Object.hasOwn(names, r.file) && names[r.file]!.includes(r.name));
  const others = results.filter((r) => !r.ok && !expected(r));
  const lines: string[] = [];
  for (const name of failed)
    lines.push(
      `✗ ${name}\n    ${clip(results.find((r) => r.name === name && !r.ok && expected(r))?.error ?? 'failed')}`,
    );
  for (const name of missing) lines.push(`✗ ${name}\n    did not run`);
  for (const r of others)
    lines.push(
      `✗ ${r.name} (registered by ${r.file || 'the global test()'})\n    ${clip(r.error ?? 'failed')}`,
    );
  const unmet = [...failed, ...missing];
  const passed = result.passed && unmet.length === 0 && others.length === 0;
  const head = `Hidden tests (run by the verdict only): ${unmet.length === 0 ? `all ${total} passed` : `${unmet.length} of ${total} failed or did not run`}${
    others.length > 0
      ? `; ${others.length} other test${others.length === 1 ? '' : 's'} failed beside them`
      : ''
  }.`;
  // A hidden file that did not load shows as its tests not running; the check's own line says why.
  const why = result.output.split('\n').filter((line) => line.startsWith('✗ could not load'));
  const detail = [head, ...lines, ...why.map(clip)].join('\n');
  return {
    kind: 'ran',
    total,
    failed: unmet,
    passed,
    detail:
      detail.length > DETAIL_CHARS
        ? `${detail.slice(0, DETAIL_CHARS)}… (${detail.length - DETAIL_CHARS} more chars)`
        : detail,
  };
}

function clip(text: string): string {
  return text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text;
}
