import {
  assertFilter,
  gateHolds,
  parseGateAssertion,
  type GateAssertion,
  type GateMetric,
  type SweepGrid,
  type SweepRow,
  type SweepRunMetrics,
} from '@/lib/protocol';
import { listCells } from './expand-grid';
import { quantile } from './results-table';

/**
 * Gates for CI: assertions on the rows of a sweep's results table (`--assert`, a grid's
 * `assert` list), each checked against every row it applies to, and the outcome as a table and
 * as JUnit XML (one test case per row × assertion).
 */

/** Which rows an assertion applies to: each axis value given must match (none given: every row). */
export interface GateWhere {
  config?: string;
  scenario?: string;
  faultPlan?: string;
  vendor?: string;
}

export interface GateCheck {
  assertion: GateAssertion;
  where: GateWhere;
  /** Where it was written: `--assert` or `assert.2` of the grid. */
  source: string;
}

/** One assertion on one row. */
export interface GateResult {
  row: string;
  key: string;
  assertion: string;
  source: string;
  /** The row's value of the metric; null when the row has none (no run finished, or no loop completed for a run time). */
  actual: number | null;
  passed: boolean;
  /** Why it passed or failed, in words. */
  message: string;
}

/** The command line's assertions then the grid's, parsed; each bad one is a line naming what to write. */
export function gateChecks(options: { cli: readonly string[]; grid: SweepGrid }): {
  checks: GateCheck[];
  problems: string[];
} {
  const checks: GateCheck[] = [];
  const problems: string[] = [];
  for (const text of options.cli) {
    const parsed = parseGateAssertion(text);
    if (parsed.ok) checks.push({ assertion: parsed.assertion, where: {}, source: '--assert' });
    else problems.push(`--assert ${parsed.error}`);
  }
  (options.grid.assert ?? []).forEach((entry, i) => {
    const { that, where } = assertFilter(entry);
    const parsed = parseGateAssertion(that);
    if (parsed.ok) checks.push({ assertion: parsed.assertion, where, source: `assert.${i}` });
    else problems.push(`assert.${i}: ${parsed.error}`);
  });
  return { checks, problems };
}

/**
 * A grid's assertions whose row filter names no row of the grid (a configuration, scenario,
 * fault plan or target it does not have): each a line naming the field and what it could be.
 */
export function gateFilterProblems(grid: SweepGrid): string[] {
  const cells = listCells(grid);
  const axes: Array<{ field: keyof GateWhere; of: (c: (typeof cells)[number]) => string }> = [
    { field: 'config', of: (c) => c.configId },
    { field: 'scenario', of: (c) => c.scenario },
    { field: 'faultPlan', of: (c) => c.faultPlan },
    { field: 'vendor', of: (c) => c.vendor },
  ];
  const problems: string[] = [];
  (grid.assert ?? []).forEach((entry, i) => {
    const { where } = assertFilter(entry);
    for (const { field, of } of axes) {
      const want = where[field];
      if (want === undefined) continue;
      const values = [...new Set(cells.map(of))];
      if (!values.includes(want))
        problems.push(
          `assert.${i}.${field}: the grid has no ${field} "${want}"; choose from ${values.join(', ')}`,
        );
    }
  });
  return problems;
}

/** A row as a gate names it: its configuration and the other axes. */
export function rowName(row: SweepRow): string {
  return [row.config_label, row.scenario, row.fault_plan, row.vendor, row.model, row.prompt_set]
    .filter((v) => v !== undefined)
    .join(' · ');
}

/** A metric's value on one row, from the row and its runs; null when the row has no such figure. */
export function gateMetricValue(
  metric: GateMetric,
  row: SweepRow,
  runs: readonly SweepRunMetrics[],
): number | null {
  if (metric === 'runs') return row.runs;
  if (row.runs === 0) return null;
  const sorted = (pick: (r: SweepRunMetrics) => number) => runs.map(pick).sort((a, b) => a - b);
  const cost = () => sorted((r) => r.usd);
  const tokens = () => sorted((r) => r.input_tokens + r.output_tokens);
  switch (metric) {
    case 'done_rate':
      return row.verdict_rate;
    case 'completion_rate':
      return row.completion_rate;
    case 'unchecked':
      return row.unchecked;
    case 'errors_seen':
      return row.errors_seen;
    case 'mean_cost':
      return row.mean_usd;
    case 'median_cost':
      return quantile(cost(), 0.5);
    case 'p95_cost':
      return quantile(cost(), 0.95);
    case 'max_cost':
      return Math.max(...cost());
    case 'wasted_cost':
      return row.wasted_usd;
    case 'mean_tokens':
      return row.mean_tokens;
    case 'median_tokens':
      return quantile(tokens(), 0.5);
    case 'p95_tokens':
      return quantile(tokens(), 0.95);
    case 'median_ms':
      return row.median_ms;
    case 'p95_ms':
      return row.p95_ms;
  }
}

const show = (v: number): string => String(Number(v.toPrecision(6)));

/** Every check on every row it applies to, in table order, then check order. */
export function evaluateGates(options: {
  checks: readonly GateCheck[];
  rows: readonly SweepRow[];
  metrics: readonly SweepRunMetrics[];
}): GateResult[] {
  const byKey = new Map<string, SweepRunMetrics[]>();
  for (const m of options.metrics) {
    const list = byKey.get(m.key);
    if (list) list.push(m);
    else byKey.set(m.key, [m]);
  }
  const results: GateResult[] = [];
  for (const row of options.rows) {
    for (const check of options.checks) {
      const { where, assertion } = check;
      if (
        (where.config !== undefined && where.config !== row.config) ||
        (where.scenario !== undefined && where.scenario !== row.scenario) ||
        (where.faultPlan !== undefined && where.faultPlan !== row.fault_plan) ||
        (where.vendor !== undefined && where.vendor !== row.vendor)
      )
        continue;
      const actual = gateMetricValue(assertion.metric, row, byKey.get(row.key) ?? []);
      const base = {
        row: rowName(row),
        key: row.key,
        assertion: assertion.text,
        source: check.source,
        actual,
      };
      if (actual === null) {
        const why =
          row.runs === 0
            ? 'no run of this row finished'
            : 'no run of this row completed its loop, so it has no run time';
        results.push({ ...base, passed: false, message: `${assertion.metric} has no value: ${why}` });
        continue;
      }
      const passed = gateHolds(assertion.op, actual, assertion.value);
      results.push({
        ...base,
        passed,
        message: passed
          ? `${assertion.metric} = ${show(actual)}, holds ${assertion.op} ${show(assertion.value)}`
          : `${assertion.metric} = ${show(actual)}, expected ${assertion.op} ${show(assertion.value)}`,
      });
    }
  }
  return results;
}

/** The results as terminal text: one line a row × assertion, failures marked FAIL. */
export function formatGates(results: readonly GateResult[]): string {
  const header = ['result', 'assertion', 'row', 'value'];
  const cells = results.map((r) => [
    r.passed ? 'ok' : 'FAIL',
    r.assertion,
    r.row,
    r.actual === null ? '—' : show(r.actual),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (parts: string[]) =>
    parts
      .map((p, i) => p.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const failed = results.filter((r) => !r.passed).length;
  return [
    line(header),
    line(widths.map((w) => '─'.repeat(w))),
    ...cells.map(line),
    failed === 0
      ? `all ${results.length} assertions hold`
      : `${failed} of ${results.length} assertions failed`,
  ].join('\n');
}

/** Text as XML 1.0 attribute or element content: escaped, characters XML cannot hold removed. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * The results as JUnit XML, the report CI systems read: one test suite for the sweep, one test
 * case per row × assertion (classname: the row; name: the assertion), a failure with its message
 * where the assertion does not hold. No timestamps or host: the same results give the same file.
 */
export function junitXml(options: {
  sweepId: string;
  name: string;
  status: string;
  results: readonly GateResult[];
}): string {
  const { results } = options;
  const failures = results.filter((r) => !r.passed).length;
  const counts = `tests="${results.length}" failures="${failures}" errors="0"`;
  const cases = results.map((r) => {
    const open = `    <testcase classname="${xml(r.row)}" name="${xml(r.assertion)}">`;
    if (r.passed) return `${open}\n      <system-out>${xml(r.message)}</system-out>\n    </testcase>`;
    return `${open}\n      <failure type="assertion" message="${xml(r.message)}">${xml(
      `${r.assertion} failed on row ${r.row} (${r.source}): ${r.message}`,
    )}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="loop-lab sweep" ${counts}>`,
    `  <testsuite name="${xml(options.name)}" id="${xml(options.sweepId)}" ${counts} skipped="0">`,
    '    <properties>',
    `      <property name="sweep" value="${xml(options.sweepId)}"/>`,
    `      <property name="status" value="${xml(options.status)}"/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
