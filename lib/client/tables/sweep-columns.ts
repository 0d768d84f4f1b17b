import type { SweepRow } from '@/lib/protocol';
import { formatMs, formatTokens, formatUsd } from '@/lib/run-view/format';

/** A column of the sweep results table: how to read, show and rank a row. */
export interface SweepColumn {
  id: string;
  header: string;
  title: string;
  value: (row: SweepRow) => number | string;
  show: (row: SweepRow) => string;
  /** Which way is better; columns without one are never marked. */
  better?: 'high' | 'low';
  /**
   * What a run spent (time, tokens, dollars): ranked only among rows whose loop completed at
   * least once — a cell where every run failed at once is cheap and quick, not best.
   */
  effort?: true;
  numeric: boolean;
  /** Why a cell shows "—" instead of a figure (the cell's tooltip); absent: the cell has its figure. */
  blank?: (row: SweepRow) => string | undefined;
  /** An axis the grid may not have: the column is shown only when some row has a value. */
  optional?: true;
}

/**
 * The columns a table of these rows shows: an optional axis only when the grid has it, and after
 * "task done" one column per scorer of the task verdict the rows report (visible tests, hidden
 * tests, each check on the answer), in the order they first appear.
 */
export function visibleColumns(rows: readonly SweepRow[]): readonly SweepColumn[] {
  const fixed = SWEEP_COLUMNS.filter((c) => !c.optional || rows.some((r) => c.value(r) !== ''));
  const at = fixed.findIndex((c) => c.id === 'verdict_rate') + 1;
  return [...fixed.slice(0, at), ...scorerColumns(rows), ...fixed.slice(at)];
}

/** The id of a scorer's column: `scorer:` and the scorer's id. */
export const scorerColumnId = (scorer: string): string => `scorer:${scorer}`;

/** One column per scorer the rows report: its pass rate over the row's runs that scored it. */
export function scorerColumns(rows: readonly SweepRow[]): SweepColumn[] {
  const ids = [...new Set(rows.flatMap((r) => (r.scorers ?? []).map((s) => s.id)))];
  return ids.map((id): SweepColumn => {
    const of = (r: SweepRow) => r.scorers?.find((s) => s.id === id);
    const blank = (r: SweepRow): string | undefined =>
      of(r) || r.runs === 0
        ? undefined
        : `no run in this cell reported the scorer "${id}" (its task has no such scorer)`;
    return {
      id: scorerColumnId(id),
      header: id,
      title: `the scorer "${id}" of the task verdict: of the cell's runs that scored it, how many it passed`,
      value: (r) => of(r)?.rate ?? Number.NaN,
      show: (r) => {
        const s = of(r);
        return s ? `${pct(s.rate)} (${s.passed}/${s.runs})` : '—';
      },
      blank,
      better: 'high',
      numeric: true,
    };
  });
}

/**
 * A run-time cell with no figure: no run finished yet, or every run failed. Shown as "—" with
 * this reason, never as a 0 that reads as the fastest cell.
 */
export function noRunTime(row: SweepRow): string | undefined {
  if (row.runs === 0) return 'no run in this cell has finished yet';
  if (row.completion_rate === 0 || row.median_ms === null) {
    return `no run in this cell completed its loop (0 of ${row.runs}): how fast a run failed is not a run time; each run's own time is in the run-time chart`;
  }
  return undefined;
}

const runTime = (ms: number | null): string => (ms === null ? '—' : formatMs(ms));

const pct = (v: number): string => `${(v * 100).toFixed(0)} %`;

export const SWEEP_COLUMNS: readonly SweepColumn[] = [
  {
    id: 'config',
    header: 'configuration',
    title: 'the recovery configuration',
    value: (r) => r.config_label,
    show: (r) => r.config_label,
    numeric: false,
  },
  {
    id: 'scenario',
    header: 'scenario',
    title: 'the scenario',
    value: (r) => r.scenario,
    show: (r) => r.scenario,
    numeric: false,
  },
  {
    id: 'fault_plan',
    header: 'faults',
    title: 'the fault plan',
    value: (r) => r.fault_plan,
    show: (r) => r.fault_plan,
    numeric: false,
  },
  {
    id: 'vendor',
    header: 'vendor',
    title: 'the simulated vendor, or the real endpoint',
    value: (r) => r.vendor,
    show: (r) => r.vendor,
    numeric: false,
  },
  {
    id: 'model',
    header: 'model',
    title: 'the model (the grid’s model axis)',
    value: (r) => r.model ?? '',
    show: (r) => r.model ?? '',
    numeric: false,
    optional: true,
  },
  {
    id: 'prompt_set',
    header: 'prompts',
    title: 'the prompt-set version (the grid’s prompt axis)',
    value: (r) => r.prompt_set ?? '',
    show: (r) => r.prompt_set ?? '',
    numeric: false,
    optional: true,
  },
  {
    id: 'runs',
    header: 'runs',
    title: 'runs finished in this cell',
    value: (r) => r.runs,
    show: (r) => String(r.runs),
    numeric: true,
  },
  {
    id: 'completion_rate',
    header: 'loop complete',
    title: 'runs whose loop ended complete (the terminate event), with the 95 % Wilson interval',
    value: (r) => r.completion_rate,
    show: (r) => `${pct(r.completion_rate)} (${pct(r.completion_ci[0])}–${pct(r.completion_ci[1])})`,
    better: 'high',
    numeric: true,
  },
  {
    id: 'verdict_rate',
    header: 'task done',
    title:
      "runs whose task verdict was done: the scenario's own check on the final workspace (task_verdict), not how the loop ended; with the 95 % Wilson interval and the runs the check could not judge",
    value: (r) => r.verdict_rate,
    show: (r) =>
      `${pct(r.verdict_rate)} (${pct(r.verdict_ci[0])}–${pct(r.verdict_ci[1])})${r.unchecked > 0 ? ` · ${r.unchecked} unchecked` : ''}`,
    better: 'high',
    numeric: true,
  },
  {
    id: 'median_ms',
    header: 'median',
    title: 'median run time (run clock); — where no run of the cell completed its loop',
    value: (r) => r.median_ms ?? Number.NaN,
    show: (r) => (noRunTime(r) ? '—' : runTime(r.median_ms)),
    blank: noRunTime,
    better: 'low',
    numeric: true,
    effort: true,
  },
  {
    id: 'p95_ms',
    header: 'p95',
    title: '95th percentile run time (run clock); — where no run of the cell completed its loop',
    value: (r) => r.p95_ms ?? Number.NaN,
    show: (r) => (noRunTime(r) ? '—' : runTime(r.p95_ms)),
    blank: noRunTime,
    better: 'low',
    numeric: true,
    effort: true,
  },
  {
    id: 'mean_tokens',
    header: 'tokens/run',
    title: 'input + output tokens per run',
    value: (r) => r.mean_tokens,
    show: (r) => formatTokens(Math.round(r.mean_tokens)),
    better: 'low',
    numeric: true,
    effort: true,
  },
  {
    id: 'mean_usd',
    header: '$/run',
    title: "cost per run: the run's own calls (its sub-agents' cost is apart)",
    value: (r) => r.mean_usd,
    show: (r) => formatUsd(r.mean_usd),
    better: 'low',
    numeric: true,
    effort: true,
  },
  // What the runs' sub-agents spent, apart from the runs' own cost and tokens: shown, not ranked.
  {
    id: 'mean_subagent_tokens',
    header: 'sub-agents tok/run',
    title: "tokens the runs' sub-agents used per run (in and out), apart from the run's own tokens/run",
    value: (r) => r.mean_subagent_tokens ?? '',
    show: (r) =>
      r.mean_subagent_tokens === undefined ? '' : formatTokens(Math.round(r.mean_subagent_tokens)),
    numeric: true,
    optional: true,
  },
  {
    id: 'mean_subagent_usd',
    header: 'sub-agents $/run',
    title: "what the runs' sub-agents cost per run, apart from the run's own $/run",
    value: (r) => r.mean_subagent_usd ?? '',
    show: (r) => (r.mean_subagent_usd === undefined ? '' : formatUsd(r.mean_subagent_usd)),
    numeric: true,
    optional: true,
  },
  {
    id: 'wasted_tokens',
    header: 'wasted tok/run',
    title: 'tokens billed for failed attempts that were thrown away, per run',
    value: (r) => r.wasted_tokens,
    show: (r) => formatTokens(Math.round(r.wasted_tokens)),
    better: 'low',
    numeric: true,
  },
  {
    id: 'wasted_usd',
    header: 'wasted $/run',
    title: 'dollars billed for failed attempts, per run',
    value: (r) => r.wasted_usd,
    show: (r) => formatUsd(r.wasted_usd),
    better: 'low',
    numeric: true,
  },
  {
    id: 'errors_seen',
    header: 'errors seen',
    title: 'errors no retry absorbed: what a person using the loop would have seen',
    value: (r) => r.errors_seen,
    show: (r) => String(r.errors_seen),
    better: 'low',
    numeric: true,
  },
];

/**
 * The best value of each rankable column among rows that have runs (an effort column: among
 * rows whose loop completed at least once); a column where every ranked row is equal, or
 * fewer than two rows are ranked, has no best. Keyed by column id.
 */
export function bestValues(rows: readonly SweepRow[]): Map<string, number> {
  const best = new Map<string, number>();
  const withRuns = rows.filter((r) => r.runs > 0);
  for (const column of [...SWEEP_COLUMNS, ...scorerColumns(rows)]) {
    if (!column.better) continue;
    const ranked = (column.effort ? withRuns.filter((r) => r.completion_rate > 0) : withRuns).filter(
      (r) => !Number.isNaN(Number(column.value(r))),
    );
    if (ranked.length < 2) continue;
    const values = ranked.map((r) => Number(column.value(r)));
    const top = column.better === 'high' ? Math.max(...values) : Math.min(...values);
    if (values.some((v) => v !== top)) best.set(column.id, top);
  }
  return best;
}

/** A short name for a row in charts: the configuration, plus whichever other axes vary. */
export function rowLabel(row: SweepRow, rows: readonly SweepRow[]): string {
  const varies = (pick: (r: SweepRow) => string): boolean => new Set(rows.map(pick)).size > 1;
  return [
    row.config_label,
    varies((r) => r.fault_plan) ? row.fault_plan : '',
    varies((r) => r.scenario) ? row.scenario : '',
    varies((r) => r.vendor) ? row.vendor : '',
    varies((r) => r.model ?? '') ? (row.model ?? '') : '',
    varies((r) => r.prompt_set ?? '') ? (row.prompt_set ?? '') : '',
  ]
    .filter(Boolean)
    .join(' · ');
}
