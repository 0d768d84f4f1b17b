import type { ColumnFiltersState, FilterFn, SortingState } from '@tanstack/react-table';
import type { RunColumnId, RunRowValues } from './runs-columns';
import { VERDICT_WORDS, parseVerdict } from '@/lib/run-view/explain/describe-verdict';

/**
 * The runs list's per-column filters: which columns filter and how, what each select offers,
 * and how the whole list state (filters, the word filter, the sort) sits in the page address so
 * a filtered list can be shared. @tanstack/react-table applies them (columnFilters).
 */
export type RunFilterKind = 'select' | 'text' | 'date';

export interface RunFilterSpec {
  id: RunColumnId;
  kind: RunFilterKind;
  /** Its query parameter in /runs?… (a date range has two: from and to). */
  param: string;
  label: string;
}

export const RUN_FILTERS: readonly RunFilterSpec[] = [
  { id: 'title', kind: 'text', param: 'title', label: 'title' },
  { id: 'scenario', kind: 'select', param: 'scenario', label: 'scenario' },
  { id: 'vendorModel', kind: 'select', param: 'model', label: 'vendor / model' },
  { id: 'preset', kind: 'select', param: 'preset', label: 'preset' },
  { id: 'seed', kind: 'text', param: 'seed', label: 'seed' },
  { id: 'outcome', kind: 'select', param: 'outcome', label: 'outcome' },
  { id: 'verdict', kind: 'select', param: 'verdict', label: 'verdict' },
  { id: 'date', kind: 'date', param: 'from', label: 'date' },
];

/** A date filter: local calendar days, both ends included (YYYY-MM-DD, either may be empty). */
export interface DateRange {
  from?: string;
  to?: string;
}

/** The verdict select's value for runs with no verdict (imports, older runs). */
export const NO_VERDICT = 'none';

const DAY = /^\d{4}-\d\d-\d\d$/;
const dayStart = (day: string): number => new Date(`${day}T00:00:00`).getTime();

/** How each filterable column matches; the others take no column filter. */
export const RUN_FILTER_FNS: Partial<Record<RunColumnId, FilterFn<RunRowValues>>> = {
  title: (row, _id, value: string) => row.original.title.toLowerCase().includes(value.trim().toLowerCase()),
  scenario: (row, _id, value: string) => row.original.scenario === value,
  // A swapped run matches every vendor / model it used.
  vendorModel: (row, _id, value: string) => row.original.vendorModels.includes(value),
  preset: (row, _id, value: string) => row.original.preset === value,
  seed: (row, _id, value: string) => String(row.original.seed ?? '') === value.trim(),
  // A status ("failed") matches every run that ended so; a whole outcome ("failed · attempt_budget") only those.
  outcome: (row, _id, value: string) => row.original.outcome === value || row.original.status === value,
  verdict: (row, _id, value: string) =>
    value === NO_VERDICT ? row.original.verdictId === undefined : row.original.verdictId === value,
  date: (row, _id, value: DateRange) => {
    const at = row.original.date;
    if (value.from && DAY.test(value.from) && at < dayStart(value.from)) return false;
    if (value.to && DAY.test(value.to) && at >= dayStart(value.to) + 86_400_000) return false;
    return true;
  },
};

export interface FilterOption {
  value: string;
  label: string;
  count: number;
}

/**
 * What a select offers: the values the runs have, with how many runs have each (the outcome
 * select offers each status too; the verdict select, "no verdict").
 */
export function filterOptions(rows: readonly RunRowValues[], id: RunColumnId): FilterOption[] {
  const counts = new Map<string, { label: string; count: number }>();
  const add = (value: string, label = value) => {
    const entry = counts.get(value) ?? { label, count: 0 };
    entry.count += 1;
    counts.set(value, entry);
  };
  for (const row of rows) {
    if (id === 'outcome') {
      add(row.status);
      if (row.outcome !== row.status) add(row.outcome, `  ${row.outcome}`);
    } else if (id === 'vendorModel') {
      for (const stop of new Set(row.vendorModels)) add(stop);
    } else if (id === 'verdict') {
      if (row.verdictId) add(row.verdictId, VERDICT_WORDS[row.verdictId]);
      else add(NO_VERDICT, 'no verdict');
    } else {
      const value = row[id];
      if (typeof value === 'string' && value !== '') add(value);
    }
  }
  return [...counts.entries()]
    .map(([value, { label, count }]) => ({ value, label, count }))
    .sort((a, b) => (id === 'outcome' ? a.value.localeCompare(b.value) : a.label.localeCompare(b.label)));
}

/** The whole list state the address carries. */
export interface RunsListState {
  columnFilters: ColumnFiltersState;
  /** The word filter across all columns. */
  words: string;
  sorting: SortingState;
}

export const DEFAULT_SORTING: SortingState = [{ id: 'date', desc: true }];

const SORTABLE = new Set<string>([
  'title',
  'scenario',
  'vendorModel',
  'preset',
  'overrides',
  'faults',
  'seed',
  'outcome',
  'verdict',
  'duration',
  'cost',
  'date',
]);

/** The list state as query parameters: only what differs from an unfiltered, newest-first list. */
export function runsListToSearch(state: RunsListState): string {
  const params = new URLSearchParams();
  if (state.words.trim()) params.set('q', state.words.trim());
  for (const spec of RUN_FILTERS) {
    const value = state.columnFilters.find((f) => f.id === spec.id)?.value;
    if (spec.kind === 'date') {
      const range = (value ?? {}) as DateRange;
      if (range.from) params.set('from', range.from);
      if (range.to) params.set('to', range.to);
    } else if (typeof value === 'string' && value.trim()) {
      params.set(spec.param, value.trim());
    }
  }
  const sort = state.sorting[0];
  if (sort && !(sort.id === 'date' && sort.desc)) params.set('sort', `${sort.desc ? '-' : ''}${sort.id}`);
  return params.toString();
}

/** Reads the list state back; anything unknown or malformed is left out, never an error. */
export function runsListFromSearch(params: URLSearchParams): RunsListState {
  const columnFilters: ColumnFiltersState = [];
  for (const spec of RUN_FILTERS) {
    if (spec.kind === 'date') {
      const from = params.get('from') ?? '';
      const to = params.get('to') ?? '';
      const range: DateRange = { ...(DAY.test(from) ? { from } : {}), ...(DAY.test(to) ? { to } : {}) };
      if (range.from || range.to) columnFilters.push({ id: spec.id, value: range });
      continue;
    }
    const value = params.get(spec.param)?.trim();
    if (!value) continue;
    if (spec.id === 'verdict' && value !== NO_VERDICT && !parseVerdict(value)) continue;
    columnFilters.push({ id: spec.id, value });
  }
  const sortParam = params.get('sort') ?? '';
  const sortId = sortParam.replace(/^-/, '');
  const sorting = SORTABLE.has(sortId) ? [{ id: sortId, desc: sortParam.startsWith('-') }] : DEFAULT_SORTING;
  return { columnFilters, words: params.get('q')?.trim() ?? '', sorting };
}
