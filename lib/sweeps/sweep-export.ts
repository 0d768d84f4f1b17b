import { z } from 'zod';
import {
  SweepGridSchema,
  SweepRowSchema,
  SweepRunMetricsSchema,
  SweepSummarySchema,
  type SweepGrid,
  type SweepRow,
  type SweepRunMetrics,
  type SweepSummary,
} from '@/lib/protocol';

/** A sweep as one JSON document: what it ran, the table, and every run's summary. */
export const SweepExportSchema = z.object({
  sweep: SweepSummarySchema,
  grid: SweepGridSchema,
  rows: z.array(SweepRowSchema),
  runs: z.array(SweepRunMetricsSchema),
});
export type SweepExport = z.infer<typeof SweepExportSchema>;

export function sweepExport(parts: { sweep: SweepSummary; grid: SweepGrid; rows: SweepRow[]; runs: SweepRunMetrics[] }): SweepExport {
  return { sweep: parts.sweep, grid: parts.grid, rows: parts.rows, runs: parts.runs };
}

/** The table's columns in CSV order; the CI splits into two columns. */
const ROW_COLUMNS = [
  'config', 'config_label', 'scenario', 'fault_plan', 'vendor', 'runs', 'completed', 'completion_rate',
  'completion_ci_low', 'completion_ci_high', 'verdict_rate', 'median_ms', 'p95_ms', 'mean_tokens', 'mean_usd',
  'wasted_tokens', 'wasted_usd', 'errors_seen',
] as const;

const RUN_COLUMNS = [
  'job', 'run_id', 'key', 'seed', 'complete', 'reason', 'duration_ms', 'input_tokens', 'output_tokens', 'usd',
  'attempts', 'failed_attempts', 'wasted_tokens', 'wasted_usd', 'errors_seen',
] as const satisfies readonly (keyof SweepRunMetrics)[];

/** RFC 4180: quote a field holding a comma, quote, CR or LF; double the quotes inside. */
function csvField(value: string | number | boolean): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function toCsv(columns: readonly string[], records: readonly Record<string, string | number | boolean>[]): string {
  const lines = [columns.join(','), ...records.map((r) => columns.map((c) => csvField(r[c] ?? '')).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** The results table as CSV, one line a row. */
export function rowsToCsv(rows: readonly SweepRow[]): string {
  return toCsv(
    ROW_COLUMNS,
    rows.map(({ completion_ci: [low, high], key: _key, ...rest }) => ({ ...rest, completion_ci_low: low, completion_ci_high: high })),
  );
}

/** Every run's summary as CSV, one line a run (its id opens it at /runs/<id>). */
export function runsToCsv(runs: readonly SweepRunMetrics[]): string {
  return toCsv(RUN_COLUMNS, runs as unknown as Record<string, string | number | boolean>[]);
}
