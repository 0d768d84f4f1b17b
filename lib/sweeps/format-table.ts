import type { SweepRow } from '@/lib/protocol';

/** A column of the printed table: its header, how a row reads in it, and which way is better. */
interface Column {
  header: string;
  value: (row: SweepRow) => number | string | null;
  format?: (value: number) => string;
  better?: 'high' | 'low';
  /** An axis the grid may not have, or a figure only some runs have: printed only when some row has it. */
  axis?: 'model' | 'prompt_set' | 'mean_subagent_tokens' | 'mean_subagent_usd';
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
/** A figure that does not apply to the row (run time where no loop completed): a dash, never 0. */
const NONE = '—';

export const TABLE_COLUMNS: readonly Column[] = [
  { header: 'configuration', value: (r) => r.config_label },
  { header: 'scenario', value: (r) => r.scenario },
  { header: 'faults', value: (r) => r.fault_plan },
  { header: 'vendor', value: (r) => r.vendor },
  { header: 'model', value: (r) => r.model ?? '', axis: 'model' },
  { header: 'prompts', value: (r) => r.prompt_set ?? '', axis: 'prompt_set' },
  { header: 'runs', value: (r) => r.runs },
  {
    header: 'loop complete',
    value: (r) => r.completion_rate,
    format: (v) => `${(v * 100).toFixed(0)} %`,
    better: 'high',
  },
  {
    header: '95 % CI',
    value: (r) => `${(r.completion_ci[0] * 100).toFixed(0)}–${(r.completion_ci[1] * 100).toFixed(0)} %`,
  },
  // The scenario's own check on the final workspace (task_verdict), not how the loop ended.
  {
    header: 'task done',
    value: (r) => r.verdict_rate,
    format: (v) => `${(v * 100).toFixed(0)} %`,
    better: 'high',
  },
  { header: 'unchecked', value: (r) => r.unchecked },
  { header: 'median', value: (r) => r.median_ms, format: seconds, better: 'low' },
  { header: 'p95', value: (r) => r.p95_ms, format: seconds, better: 'low' },
  {
    header: 'tokens/run',
    value: (r) => r.mean_tokens,
    format: (v) => Math.round(v).toLocaleString('en'),
    better: 'low',
  },
  { header: '$/run', value: (r) => r.mean_usd, format: (v) => `$${v.toFixed(4)}`, better: 'low' },
  // What the runs' sub-agents spent, apart from the runs' own above: shown, not judged.
  {
    header: 'sub-agents tok/run',
    value: (r) => r.mean_subagent_tokens ?? null,
    format: (v) => Math.round(v).toLocaleString('en'),
    axis: 'mean_subagent_tokens',
  },
  {
    header: 'sub-agents $/run',
    value: (r) => r.mean_subagent_usd ?? null,
    format: (v) => `$${v.toFixed(4)}`,
    axis: 'mean_subagent_usd',
  },
  {
    header: 'wasted tok/run',
    value: (r) => r.wasted_tokens,
    format: (v) => Math.round(v).toLocaleString('en'),
    better: 'low',
  },
  { header: 'wasted $/run', value: (r) => r.wasted_usd, format: (v) => `$${v.toFixed(4)}`, better: 'low' },
  { header: 'errors seen', value: (r) => r.errors_seen, better: 'low' },
];

/**
 * The results table as terminal text, columns aligned, the best value of each column marked
 * with `*` (ties all marked; a column where every row is equal marks nothing).
 */
export function formatTable(rows: readonly SweepRow[]): string {
  const fixed = TABLE_COLUMNS.filter((c) => !c.axis || rows.some((r) => r[c.axis!] !== undefined));
  // Each scorer of the task verdict (visible tests, hidden tests, checks on the answer): its pass rate, after "unchecked".
  const scorerIds = [...new Set(rows.flatMap((r) => (r.scorers ?? []).map((s) => s.id)))];
  const scorerColumns: Column[] = scorerIds.map((id) => ({
    header: id,
    value: (r) => r.scorers?.find((s) => s.id === id)?.rate ?? null,
    format: (v) => `${(v * 100).toFixed(0)} %`,
    better: 'high',
  }));
  const at = fixed.findIndex((c) => c.header === 'unchecked') + 1;
  const columns = [...fixed.slice(0, at), ...scorerColumns, ...fixed.slice(at)];
  // The text columns (configuration … vendor, and the axes the grid has) are left-aligned.
  const textColumns = columns.findIndex((c) => c.header === 'runs');
  const cells = rows.map((row) =>
    columns.map((c) => {
      const v = c.value(row);
      if (v === null) return NONE;
      return typeof v === 'number' && c.format ? c.format(v) : String(v);
    }),
  );
  columns.forEach((column, ci) => {
    if (!column.better || rows.length < 2) return;
    const values = rows.map((r) => column.value(r)).map((v) => (v === null ? Number.NaN : Number(v)));
    const ranked = values.filter((v) => !Number.isNaN(v));
    if (ranked.length < 2) return;
    const best = column.better === 'high' ? Math.max(...ranked) : Math.min(...ranked);
    if (ranked.every((v) => v === best)) return;
    values.forEach((v, ri) => {
      if (v === best) cells[ri]![ci] = `${cells[ri]![ci]}*`;
    });
  });
  const headers = columns.map((c) => c.header);
  const widths = headers.map((h, ci) => Math.max(h.length, ...cells.map((r) => r[ci]!.length)));
  const line = (parts: string[]): string =>
    parts.map((p, ci) => (ci < textColumns ? p.padEnd(widths[ci]!) : p.padStart(widths[ci]!))).join('  ');
  return [line(headers), line(widths.map((w) => '─'.repeat(w))), ...cells.map(line)].join('\n');
}
