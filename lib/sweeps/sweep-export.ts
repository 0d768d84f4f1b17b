import type { SweepGrid, SweepRow, SweepRunMetrics, SweepSummary } from '@/lib/protocol';
import type { SweepExport } from '@/lib/protocol/http';

/**
 * What the two rates of a row measure, written into every JSON export so a reader of the file
 * alone knows the task verdict rate is the scenario's check, not how the loop ended.
 */
export const RATE_DEFINITIONS = {
  completion_rate:
    'loop completion: runs whose terminate event says complete (the loop ended on its own terms)',
  verdict_rate:
    "task verdict: runs whose task_verdict event says done (the scenario's own check on the final workspace); " +
    'runs the check could not judge (unchecked) count as not done',
} as const;

export { SweepExportSchema, type SweepExport } from '@/lib/protocol/http';

export function sweepExport(parts: {
  sweep: SweepSummary;
  grid: SweepGrid;
  rows: SweepRow[];
  runs: SweepRunMetrics[];
}): SweepExport {
  return {
    definitions: { ...RATE_DEFINITIONS },
    sweep: parts.sweep,
    grid: parts.grid,
    rows: parts.rows,
    runs: parts.runs,
  };
}

/**
 * The table's columns in CSV order; each interval splits into two columns. The two rates are
 * named for what they count (loop_completion_*: the terminate event; task_verdict_*: the
 * scenario's check), since a CSV carries no definitions of its own.
 */
const ROW_COLUMNS = [
  'config',
  'config_label',
  'scenario',
  'fault_plan',
  'vendor',
  'runs',
  'completed',
  'loop_completion_rate',
  'loop_completion_ci_low',
  'loop_completion_ci_high',
  'task_verdict_rate',
  'task_verdict_ci_low',
  'task_verdict_ci_high',
  'task_unchecked',
  'median_ms',
  'p95_ms',
  'mean_tokens',
  'mean_usd',
  'wasted_tokens',
  'wasted_usd',
  'errors_seen',
] as const;

const RUN_COLUMNS = [
  'job',
  'run_id',
  'key',
  'seed',
  'complete',
  'reason',
  'verdict',
  'duration_ms',
  'input_tokens',
  'output_tokens',
  'usd',
  'attempts',
  'failed_attempts',
  'wasted_tokens',
  'wasted_usd',
  'errors_seen',
] as const satisfies readonly (keyof SweepRunMetrics)[];

const SUBAGENT_ROW_COLUMNS = [
  'mean_subagent_tokens',
  'mean_subagent_usd',
] as const satisfies readonly (keyof SweepRow)[];
const SUBAGENT_RUN_COLUMNS = [
  'subagent_input_tokens',
  'subagent_output_tokens',
  'subagent_usd',
] as const satisfies readonly (keyof SweepRunMetrics)[];

/** RFC 4180: quote a field holding a comma, quote, CR or LF; double the quotes inside. */
function csvField(value: string | number | boolean): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function toCsv(
  columns: readonly string[],
  records: readonly Record<string, string | number | boolean | null>[],
): string {
  const lines = [
    columns.join(','),
    ...records.map((r) => columns.map((c) => csvField(r[c] ?? '')).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** The results table as CSV, one line a row. */
export function rowsToCsv(rows: readonly SweepRow[]): string {
  // The model and prompt axes follow the vendor, when the grid has them.
  const axes = (['model', 'prompt_set'] as const).filter((axis) => rows.some((r) => r[axis] !== undefined));
  const at = ROW_COLUMNS.indexOf('vendor') + 1;
  // Each scorer of the task verdict: its pass rate, after task_unchecked (scorer_<id>_rate).
  const scorerIds = [...new Set(rows.flatMap((r) => (r.scorers ?? []).map((s) => s.id)))];
  const afterUnchecked = ROW_COLUMNS.indexOf('task_unchecked') + 1;
  // What the runs' sub-agents spent, after mean_usd (the runs' own), when some row's runs started any.
  const subagents = SUBAGENT_ROW_COLUMNS.filter((c) => rows.some((r) => r[c] !== undefined));
  const afterUsd = ROW_COLUMNS.indexOf('mean_usd') + 1;
  return toCsv(
    [
      ...ROW_COLUMNS.slice(0, at),
      ...axes,
      ...ROW_COLUMNS.slice(at, afterUnchecked),
      ...scorerIds.map((id) => `scorer_${id}_rate`),
      ...ROW_COLUMNS.slice(afterUnchecked, afterUsd),
      ...subagents,
      ...ROW_COLUMNS.slice(afterUsd),
    ],
    rows.map(
      ({
        key: _key,
        completion_rate,
        completion_ci,
        verdict_rate,
        verdict_ci,
        unchecked,
        scorers,
        ...rest
      }) => ({
        ...rest,
        ...Object.fromEntries((scorers ?? []).map((sc) => [`scorer_${sc.id}_rate`, sc.rate])),
        loop_completion_rate: completion_rate,
        loop_completion_ci_low: completion_ci[0],
        loop_completion_ci_high: completion_ci[1],
        task_verdict_rate: verdict_rate,
        task_verdict_ci_low: verdict_ci[0],
        task_verdict_ci_high: verdict_ci[1],
        task_unchecked: unchecked,
      }),
    ),
  );
}

/** Every run's summary as CSV, one line a run (its id opens it at /runs/<id>). */
export function runsToCsv(runs: readonly SweepRunMetrics[]): string {
  // Its sub-agents' spend after usd (the run's own), when some run started any.
  const subagents = SUBAGENT_RUN_COLUMNS.filter((c) => runs.some((r) => r[c] !== undefined));
  const afterUsd = RUN_COLUMNS.indexOf('usd') + 1;
  // A run stored before verdicts has none: an empty cell.
  return toCsv(
    [...RUN_COLUMNS.slice(0, afterUsd), ...subagents, ...RUN_COLUMNS.slice(afterUsd)],
    runs.map(({ scorers: _scorers, ...r }) => ({ ...r, verdict: r.verdict ?? '' })),
  );
}
