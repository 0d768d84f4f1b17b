import type { ColumnDef, FilterFn } from '@tanstack/react-table';
import type { TaskVerdict } from '@/lib/protocol';
import type { RunSummary } from '../api/client';
import { VERDICT_WORDS, parseVerdict } from '@/lib/run-view/explain/describe-verdict';
import { RUN_FILTER_FNS } from './runs-filters';

/** Said wherever a run's title is shown: the model wrote it, and it is not the verdict. */
export const MODEL_TITLE_NOTE =
  "the model's own title for this run (its background title call), not a verdict: the verdict column says whether the task was done";

/** What the run list's columns read from a summary: one value per column, sortable as is. */
export interface RunRowValues {
  id: string;
  title: string;
  scenario: string;
  /** Every vendor / model the run used, in order, joined by arrows (a swapped run lists each). */
  vendorModel: string;
  /** The same, one "vendor / model" per stop (the vendor / model filter matches any of them). */
  vendorModels: string[];
  /** The same stops as data. */
  vendorStops: { vendor: string; model: string }[];
  preset: string;
  /** What the config changed from its preset, in the mechanisms' words ("watchdog off"); '' for none. */
  overrides: string;
  faults: string;
  seed: number | null;
  /** The loop's status, with its terminate reason after a dot when it has one. */
  outcome: string;
  status: string;
  verdict: string;
  verdictId: TaskVerdict | undefined;
  duration: number | null;
  cost: number | null;
  /** Epoch ms (NaN-free: 0 when unknown). */
  date: number;
  promptSet: string;
  imported: boolean;
}

export function runRowValues(run: RunSummary): RunRowValues {
  const verdict = parseVerdict(run.verdict);
  const created = run.created_at === undefined ? NaN : new Date(run.created_at).getTime();
  const stops = run.vendors?.length ? run.vendors : [{ vendor: run.vendor ?? '–', model: run.model ?? '–' }];
  const vendorStops = stops.map((s) => ({ vendor: s.vendor || '–', model: s.model || '–' }));
  const vendorModels = vendorStops.map((s) => `${s.vendor} / ${s.model}`);
  return {
    id: run.id,
    title: run.title ?? '',
    scenario: run.scenario ?? '',
    vendorModel: vendorModels.join(' → '),
    vendorModels,
    vendorStops,
    preset: run.preset ?? '',
    overrides: (run.overrides ?? []).join(', '),
    faults: (run.faults ?? []).join(', '),
    seed: run.seed ?? null,
    outcome: run.reason ? `${run.status ?? 'unknown'} · ${run.reason}` : (run.status ?? 'unknown'),
    status: run.status ?? 'unknown',
    verdict: verdict ? VERDICT_WORDS[verdict] : '',
    verdictId: verdict,
    duration: run.duration_ms ?? null,
    cost: run.usd ?? null,
    date: Number.isFinite(created) ? created : 0,
    promptSet: run.prompt_set ? `${run.prompt_set.name} v${run.prompt_set.version}` : '',
    imported: run.imported === true,
  };
}

/** The date in full, to the second, in the browser's time zone: 2026-11-30 21:08:00. */
export function formatDate(ms: number): string {
  if (ms === 0) return '–';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The filter box: every word must appear in some column's text (case-insensitive). */
export const matchesEveryWord: FilterFn<RunRowValues> = (row, _columnId, query: string) => {
  const v = row.original;
  const hay = [
    v.title,
    v.scenario,
    v.vendorModel,
    v.preset,
    v.overrides,
    v.faults,
    v.seed ?? '',
    v.outcome,
    v.verdict,
    v.promptSet,
    v.id,
    formatDate(v.date),
  ]
    .join(' ')
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => hay.includes(word));
};

/** Column ids in display order, with their header words. */
export const RUN_COLUMNS = [
  ['title', 'title'],
  ['scenario', 'scenario'],
  ['vendorModel', 'vendor / model'],
  ['preset', 'preset'],
  ['overrides', 'overrides'],
  ['faults', 'faults'],
  ['seed', 'seed'],
  ['outcome', 'outcome'],
  ['verdict', 'verdict'],
  ['duration', 'duration'],
  ['cost', 'cost'],
  ['date', 'date'],
] as const satisfies readonly (readonly [keyof RunRowValues, string])[];

export type RunColumnId = (typeof RUN_COLUMNS)[number][0];

/** Column definitions for @tanstack/react-table: numbers sort as numbers, missing values last. */
export const RUN_COLUMN_DEFS: ColumnDef<RunRowValues>[] = RUN_COLUMNS.map(([id, header]) => ({
  id,
  header,
  // Missing (null or '') reads as undefined, so it sorts last whichever way.
  accessorFn: (row: RunRowValues) => {
    const value = row[id];
    return value === null || value === '' ? undefined : value;
  },
  sortUndefined: 'last',
  sortingFn: id === 'seed' || id === 'duration' || id === 'cost' || id === 'date' ? 'basic' : 'alphanumeric',
  // Dates, durations and costs read largest first on the first click.
  sortDescFirst: id === 'date' || id === 'duration' || id === 'cost',
  enableGlobalFilter: true,
  // Per-column filters (lib/client/tables/runs-filters.ts): selects, text and a date range.
  ...(RUN_FILTER_FNS[id] ? { filterFn: RUN_FILTER_FNS[id] } : { enableColumnFilter: false }),
}));
