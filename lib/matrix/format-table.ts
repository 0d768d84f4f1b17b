import { PRESET_LABELS, type PresetId } from '@/lib/protocol';
import { MATRIX_PRESETS, MATRIX_VENDORS, type Cell } from './cells';
import type { CellResult, MatrixReport } from './run-matrix';
import { TOOL_ROWS, type ToolCellResult } from './tool-cells';
import type { CacheCellResult } from './cache-cells';
import { MATRIX_FAULTS } from './fault-kinds';
import { INJECTION_POINTS, POINTS } from './injection-points';

/** One character a cell: how the run ended (and by which path when it completed). */
export const LEGEND: ReadonlyArray<readonly [string, string]> = [
  ['=', 'completes; nothing failed (only slow)'],
  ['S', 'completes; the SDK retried beneath the loop, unseen'],
  ['R', 'completes; the loop retried after backoff'],
  ['W', 'completes; the watchdog fired on an empty stream and retried at once'],
  ['P', 'completes; the watchdog’s Partial rule kept what arrived, no retry'],
  ['K', 'ends partial_response: the Partial is presented and the run stops, as promised'],
  ['E', 'ends model_error, as promised'],
  ['X', 'ends retries_exhausted, as promised'],
  ['B', 'ends on the run time budget, as promised (no watchdog: the silence is waited out)'],
  ['!', 'broke its promise (listed below)'],
  ['H', 'hang: did not end within the wall-time guard'],
  ['·', 'cannot apply (why: below)'],
  ['…', 'promise needs a mechanism this build does not have yet'],
];

const PRESET_SHORT: Record<PresetId, string> = {
  codesmith: 'cs',
  s11: 's11',
  course: 'crs',
  naive: 'nv',
  'sdk-default': 'sdk',
};
const CELL_WIDTH = 4;

/** The symbol a run earned, read from its observed outcome (not from its promise). */
export function symbolOf(result: CellResult): string {
  const { verdict } = result;
  if (verdict.hung) return 'H';
  if (!verdict.passed) return '!';
  const { ending, path } = verdict.observed;
  if (ending === 'completes') {
    return {
      untouched: '=',
      sdk_retry: 'S',
      loop_retry: 'R',
      watchdog_empty: 'W',
      partial_kept: 'P',
      surfaced: '!',
      waited_out: '!',
    }[path];
  }
  return (
    (
      { model_error: 'E', retries_exhausted: 'X', run_time_budget: 'B', partial_response: 'K' } as Record<
        string,
        string
      >
    )[ending] ?? '!'
  );
}

/**
 * The matrix as a person reads it: rows fault × point (only combinations that can apply),
 * columns vendor × preset, one symbol a cell; then the legend, the combinations that cannot
 * apply and why, any broken promises with the rule they broke, and the totals.
 */
export function formatMatrix(report: MatrixReport): string {
  const byCell = new Map<Cell, CellResult>(report.results.map((r) => [r.cell, r]));
  const key = (c: Pick<Cell, 'fault' | 'point' | 'vendor' | 'preset'>): string =>
    `${c.fault.id}|${c.point}|${c.vendor}|${c.preset}`;
  const cellAt = new Map(report.cells.map((c) => [key(c), c]));
  const lines: string[] = [];
  const rowLabels = MATRIX_FAULTS.flatMap((fault) =>
    INJECTION_POINTS.map((point) => ({ fault, point, label: `${fault.id} ${POINTS[point].label}` })),
  );
  const labelWidth = Math.max(...rowLabels.map((r) => r.label.length)) + 2;
  const columns = MATRIX_VENDORS.flatMap((vendor) => MATRIX_PRESETS.map((preset) => ({ vendor, preset })));
  const group = MATRIX_PRESETS.length * CELL_WIDTH;

  lines.push(' '.repeat(labelWidth) + MATRIX_VENDORS.map((v) => `| ${v}`.padEnd(group + 2)).join(''));
  lines.push(
    ' '.repeat(labelWidth) +
      MATRIX_VENDORS.map(
        () => `| ${MATRIX_PRESETS.map((p) => PRESET_SHORT[p].padEnd(CELL_WIDTH)).join('')}`,
      ).join(''),
  );
  for (const row of rowLabels) {
    const cells = columns.map((col) => cellAt.get(key({ ...row, ...col })));
    if (cells.every((c) => c === undefined || c.status === 'not_applicable')) continue;
    const symbols = MATRIX_VENDORS.map((vendor) => {
      const inGroup = MATRIX_PRESETS.map((preset) => cellAt.get(key({ ...row, vendor, preset })));
      return `| ${inGroup.map((c) => symbolFor(c, byCell).padEnd(CELL_WIDTH)).join('')}`;
    });
    lines.push(row.label.padEnd(labelWidth) + symbols.join(''));
  }

  lines.push(
    '',
    'Legend: ' + MATRIX_PRESETS.map((p) => `${PRESET_SHORT[p]} = ${PRESET_LABELS[p]}`).join(', '),
  );
  for (const [symbol, meaning] of LEGEND) lines.push(`  ${symbol}  ${meaning}`);

  lines.push('', 'Cannot apply:');
  for (const [why, where] of groupSkipped(report.cells, 'not_applicable')) lines.push(`  ${where}: ${why}`);
  const pending = groupSkipped(report.cells, 'pending');
  if (pending.size > 0) {
    lines.push('', 'Waiting on a mechanism:');
    for (const [why, where] of pending) lines.push(`  ${where}: ${why}`);
  }

  const broken = report.results.filter((r) => !r.verdict.passed);
  if (broken.length > 0) {
    lines.push('', 'Broken promises:');
    for (const r of broken) {
      lines.push(
        `  ${r.cell.fault.id} ${POINTS[r.cell.point].label} on ${r.cell.vendor} × ${r.cell.preset}: ${r.verdict.failures.join('; ')}`,
      );
      lines.push(`    rule: ${r.cell.promise.rule}`);
    }
  }
  lines.push(...formatToolRows(report.toolResults));
  lines.push(...formatCacheRow(report.cacheResults));
  lines.push('', 'Per preset (every vendor):');
  for (const preset of MATRIX_PRESETS)
    lines.push(`  ${PRESET_SHORT[preset].padEnd(4)} ${presetSummary(report, preset)}`);
  lines.push('', totalsLine(report));
  return lines.join('\n');
}

function symbolFor(cell: Cell | undefined, byCell: Map<Cell, CellResult>): string {
  if (!cell) return ' ';
  if (cell.status === 'not_applicable') return '·';
  if (cell.status === 'pending') return '…';
  const result = byCell.get(cell);
  return result ? symbolOf(result) : '?';
}

/** Skipped combinations grouped by reason: "drop, stall × mid-thinking × sim-openai (10)". */
function groupSkipped(cells: Cell[], status: 'not_applicable' | 'pending'): Map<string, string> {
  const groups = new Map<string, Cell[]>();
  for (const cell of cells) {
    if (cell.status !== status) continue;
    const list = groups.get(cell.why) ?? [];
    list.push(cell);
    groups.set(cell.why, list);
  }
  const out = new Map<string, string>();
  for (const [why, list] of groups) {
    const names = <T>(pick: (c: Cell) => T): T[] => [...new Set(list.map(pick))];
    const faults = names((c) => c.fault.id).join(', ');
    const points = names((c) => POINTS[c.point].label).join(', ');
    const vendors =
      names((c) => c.vendor).length === MATRIX_VENDORS.length
        ? 'every vendor'
        : names((c) => c.vendor).join(', ');
    const presets =
      names((c) => c.preset).length === MATRIX_PRESETS.length
        ? 'every preset'
        : names((c) => c.preset).join(', ');
    out.set(why, `${faults} × ${points} × ${vendors} × ${presets} (${list.length} cells)`);
  }
  return out;
}

/** How one preset's cells came out: counts per symbol, and the cells still waiting. */
export function presetSummary(report: MatrixReport, preset: PresetId): string {
  const counts = new Map<string, number>();
  for (const result of report.results) {
    if (result.cell.preset !== preset) continue;
    const symbol = symbolOf(result);
    counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  }
  const waiting = report.cells.filter((c) => c.preset === preset && c.status === 'pending').length;
  const run = [...counts.values()].reduce((a, b) => a + b, 0);
  const parts = LEGEND.filter(([symbol]) => counts.has(symbol)).map(
    ([symbol]) => `${symbol} ${counts.get(symbol)}`,
  );
  return `${run} run: ${parts.join(', ')}${waiting > 0 ? `; ${waiting} waiting` : ''}`;
}

export function totalsLine(report: MatrixReport): string {
  const count = (status: Cell['status']): number => report.cells.filter((c) => c.status === status).length;
  const passed = report.results.filter((r) => r.verdict.passed).length;
  const hangs = report.results.filter((r) => r.verdict.hung).length;
  const toolPassed = report.toolResults.filter((r) => r.passed).length;
  return [
    `cells: ${report.cells.length} combinations, ${report.results.length} run`,
    `passed ${passed}`,
    `failed ${report.results.length - passed}`,
    `hangs ${hangs}`,
    `cannot apply ${count('not_applicable')}`,
    `waiting ${count('pending')}`,
    `wall time ${(report.wallMs / 1000).toFixed(1)} s`,
    ...(report.toolResults.length > 0
      ? [`tool-call rows: ${toolPassed} of ${report.toolResults.length} passed`]
      : []),
    ...(report.cacheResults.length > 0
      ? [
          `prompt-cache row: ${report.cacheResults.filter((r) => r.passed).length} of ${report.cacheResults.length} passed`,
        ]
      : []),
  ].join(' · ');
}

/** The tool-call rows: how each vendor × preset handled a cut turn and a turn of parallel calls. */
export function formatToolRows(results: readonly ToolCellResult[]): string[] {
  if (results.length === 0) return [];
  const group = MATRIX_PRESETS.length * CELL_WIDTH;
  const lines = [
    '',
    'Tool-call rows:',
    ' '.repeat(14) + MATRIX_VENDORS.map((v) => `| ${v}`.padEnd(group + 2)).join(''),
  ];
  for (const row of TOOL_ROWS) {
    const symbols = MATRIX_VENDORS.map((vendor) => {
      const inGroup = MATRIX_PRESETS.map((preset) =>
        results.find((r) => r.cell.row === row && r.cell.vendor === vendor && r.cell.preset === preset),
      );
      return `| ${inGroup.map((r) => (r ? toolSymbol(r) : ' ').padEnd(CELL_WIDTH)).join('')}`;
    });
    lines.push(row.padEnd(14) + symbols.join(''));
  }
  for (const [symbol, meaning] of TOOL_LEGEND) lines.push(`  ${symbol}  ${meaning}`);
  for (const r of results.filter((x) => !x.passed))
    lines.push(
      `  ! ${r.cell.row} on ${r.cell.vendor} × ${r.cell.preset}: ${r.failures.join('; ')} (rule: ${r.cell.promise.rule})`,
    );
  return lines;
}

const TOOL_LEGEND: ReadonlyArray<readonly [string, string]> = [
  ['Y', 'interrupted: the dangling call got a synthetic error result and the run completed'],
  [
    '4',
    'interrupted: the call went unanswered and the strict vendor answered 400 (model_error), as promised',
  ],
  ['∥', 'parallel: the looking calls ran at once, their results went back in call order (two turns run)'],
  ['1', 'parallel: the calls ran one after another, their results went back in call order (two turns run)'],
];

function toolSymbol(result: ToolCellResult): string {
  if (result.hung) return 'H';
  if (!result.passed) return '!';
  return { synthetic_results: 'Y', sent_unanswered: '4', at_once: '∥', one_by_one: '1', none: '!' }[
    result.observed.path
  ];
}

/** The prompt-cache row: on each vendor × preset, whether every llm_call's cache figures are the vendor's own. */
export function formatCacheRow(results: readonly CacheCellResult[]): string[] {
  if (results.length === 0) return [];
  const group = MATRIX_PRESETS.length * CELL_WIDTH;
  const lines = [
    '',
    'Prompt-cache row:',
    ' '.repeat(14) + MATRIX_VENDORS.map((v) => `| ${v}`.padEnd(group + 2)).join(''),
  ];
  const symbols = MATRIX_VENDORS.map((vendor) => {
    const inGroup = MATRIX_PRESETS.map((preset) =>
      results.find((r) => r.cell.vendor === vendor && r.cell.preset === preset),
    );
    return `| ${inGroup.map((r) => (r ? (!r.passed ? '!' : r.cell.promise.cached ? 'C' : '-') : ' ').padEnd(CELL_WIDTH)).join('')}`;
  });
  lines.push('cache'.padEnd(14) + symbols.join(''));
  lines.push(
    '  C  caching on: later requests read from the cache, every llm_call’s cache figures are the vendor’s own usage',
  );
  lines.push('  -  caching off: no breakpoint sent, nothing read or written');
  for (const r of results.filter((x) => !x.passed))
    lines.push(
      `  ! cache on ${r.cell.vendor} × ${r.cell.preset}: ${r.failures.join('; ')} (rule: ${r.cell.promise.rule})`,
    );
  return lines;
}
