import {
  createTable,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  type SortingState,
  type TableState,
} from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../api/client';
import {
  formatDate,
  matchesEveryWord,
  RUN_COLUMN_DEFS,
  runRowValues,
  type RunRowValues,
} from './runs-columns';

const base: RunSummary = {
  id: '',
  created_at: '',
  status: 'completed',
  reason: null,
  complete: null,
  verdict: null,
  vendor: '',
  model: '',
  scenario: '',
  title: null,
  vendors: [{ vendor: '', model: '' }],
  overrides: [],
  preset: '',
  seed: null,
  faults: [],
  prompt_set: null,
  iterations: 0,
  input_tokens: 0,
  output_tokens: 0,
  usd: 0,
  duration_ms: 0,
  event_count: 0,
  imported: false,
};
const runs: RunSummary[] = [
  {
    ...base,
    id: 'a',
    created_at: '2026-11-30T10:00:00.000Z',
    status: 'completed',
    reason: 'end_turn',
    verdict: 'done',
    vendor: 'sim-anthropic',
    model: 'claude-sim-sonnet',
    vendors: [{ vendor: 'sim-anthropic', model: 'claude-sim-sonnet' }],
    scenario: 'fix-failing-test',
    title: 'Fix slugify',
    preset: 'codesmith',
    seed: 1,
    faults: [],
    usd: 0.02,
    duration_ms: 9_000,
  },
  {
    ...base,
    id: 'b',
    created_at: '2026-11-30T12:00:00.000Z',
    status: 'failed',
    reason: 'retries_exhausted',
    verdict: 'not_done',
    vendor: 'sim-openai',
    model: 'gpt-sim-4o',
    vendors: [{ vendor: 'sim-openai', model: 'gpt-sim-4o' }],
    scenario: 'huge-log',
    title: null,
    preset: 'naive',
    seed: 42,
    faults: ['overloaded ×3'],
    usd: 0.3,
    duration_ms: 120_000,
    prompt_set: { name: 'terse', version: 2 },
  },
  {
    ...base,
    id: 'c',
    created_at: '2026-11-29T08:00:00.000Z',
    status: 'running',
    vendor: 'sim-anthropic',
    model: 'claude-sim-haiku',
    vendors: [{ vendor: 'sim-anthropic', model: 'claude-sim-haiku' }],
    scenario: 'fix-failing-test',
    title: 'Read the README',
    preset: 's11',
    seed: 7,
    faults: ['429 with Retry-After 7 s', 'tools throw'],
    usd: 0.005,
    duration_ms: 1_500,
  },
];

function view(state: Partial<TableState>): string[] {
  const full: TableState = {
    sorting: [],
    globalFilter: '',
    columnFilters: [],
    columnVisibility: {},
    columnOrder: [],
    columnPinning: {},
    rowPinning: { top: [], bottom: [] },
    columnSizing: {},
    columnSizingInfo: {
      startOffset: null,
      startSize: null,
      deltaOffset: null,
      deltaPercentage: null,
      isResizingColumn: false,
      columnSizingStart: [],
    },
    expanded: {},
    grouping: [],
    pagination: { pageIndex: 0, pageSize: 100 },
    rowSelection: {},
    ...state,
  };
  const table = createTable<RunRowValues>({
    data: runs.map(runRowValues),
    columns: RUN_COLUMN_DEFS,
    state: full,
    onStateChange: () => {},
    renderFallbackValue: null,
    globalFilterFn: matchesEveryWord,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  return table.getRowModel().rows.map((r) => r.original.id);
}
const sorted = (sorting: SortingState) => view({ sorting });

describe('the runs list columns', () => {
  it('reads every column from the summary', () => {
    expect(runRowValues(runs[1]!)).toMatchObject({
      title: '',
      scenario: 'huge-log',
      vendorModel: 'sim-openai / gpt-sim-4o',
      preset: 'naive',
      faults: 'overloaded ×3',
      seed: 42,
      outcome: 'failed · retries_exhausted',
      verdict: 'task not done',
      duration: 120_000,
      cost: 0.3,
      promptSet: 'terse v2',
    });
  });

  it('shows every vendor / model of a swapped run in order, and what the config changed from its preset', () => {
    const swapped: RunSummary = {
      ...runs[0]!,
      vendors: [
        { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
        { vendor: 'sim-openai', model: 'gpt-sim-4o' },
        { vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner' },
      ],
      overrides: ['watchdog off', 'partial-kept off'],
    };
    const row = runRowValues(swapped);
    expect(row.vendorModel).toBe(
      'sim-anthropic / claude-sim-sonnet → sim-openai / gpt-sim-4o → sim-deepseek / deepseek-sim-reasoner',
    );
    expect(row.overrides).toBe('watchdog off, partial-kept off');
    // The word filter finds a run by any vendor it used and by a mechanism switched off.
    const match = (query: string) => matchesEveryWord({ original: row } as never, 'title', query, () => {});
    expect(match('deepseek')).toBe(true);
    expect(match('partial-kept off')).toBe(true);
    expect(runRowValues(runs[0]!).overrides).toBe('');
  });

  it('sorts numbers as numbers and dates by time, either way', () => {
    expect(sorted([{ id: 'cost', desc: true }])).toEqual(['b', 'a', 'c']);
    expect(sorted([{ id: 'duration', desc: false }])).toEqual(['c', 'a', 'b']);
    expect(sorted([{ id: 'date', desc: true }])).toEqual(['b', 'a', 'c']);
    expect(sorted([{ id: 'seed', desc: false }])).toEqual(['a', 'c', 'b']);
  });

  it('puts a missing value last whichever way it sorts', () => {
    expect(sorted([{ id: 'title', desc: false }])).toEqual(['a', 'c', 'b']);
    expect(sorted([{ id: 'title', desc: true }])).toEqual(['c', 'a', 'b']);
    expect(sorted([{ id: 'verdict', desc: false }])).toEqual(['a', 'b', 'c']);
  });

  it('filters on every word across the columns', () => {
    expect(view({ globalFilter: 'overloaded' })).toEqual(['b']);
    expect(view({ globalFilter: 'fix-failing sim-anthropic' })).toEqual(['a', 'c']);
    expect(view({ globalFilter: 'tools throw s11' })).toEqual(['c']);
    expect(view({ globalFilter: 'terse v2' })).toEqual(['b']);
    expect(view({ globalFilter: 'nothing-like-this' })).toEqual([]);
  });

  it('filters per column: selects match exactly, title and seed as typed, a date range by local day, all together', () => {
    const only = (columnFilters: { id: string; value: unknown }[], globalFilter = '') =>
      view({ columnFilters, globalFilter });
    expect(only([{ id: 'scenario', value: 'fix-failing-test' }])).toEqual(['a', 'c']);
    expect(only([{ id: 'vendorModel', value: 'sim-anthropic / claude-sim-haiku' }])).toEqual(['c']);
    expect(only([{ id: 'preset', value: 'naive' }])).toEqual(['b']);
    // A status matches every run that ended so; a whole outcome only those runs.
    expect(only([{ id: 'outcome', value: 'completed' }])).toEqual(['a']);
    expect(only([{ id: 'outcome', value: 'failed · retries_exhausted' }])).toEqual(['b']);
    expect(only([{ id: 'verdict', value: 'not_done' }])).toEqual(['b']);
    expect(only([{ id: 'verdict', value: 'none' }])).toEqual(['c']);
    expect(only([{ id: 'title', value: 'readme' }])).toEqual(['c']);
    // A seed is a number: 4 is not 42.
    expect(only([{ id: 'seed', value: '4' }])).toEqual([]);
    expect(only([{ id: 'seed', value: '42' }])).toEqual(['b']);
    const day = (iso: string) => formatDate(new Date(iso).getTime()).slice(0, 10);
    expect(only([{ id: 'date', value: { from: day('2026-11-30T12:00:00.000Z') } }]).sort()).toEqual(
      runs
        .filter((r) => day(r.created_at) >= day('2026-11-30T12:00:00.000Z'))
        .map((r) => r.id)
        .sort(),
    );
    expect(only([{ id: 'date', value: { to: day('2026-11-29T08:00:00.000Z') } }])).toEqual(
      runs.filter((r) => day(r.created_at) <= day('2026-11-29T08:00:00.000Z')).map((r) => r.id),
    );
    // Filters combine with each other and with the word filter.
    expect(
      only([
        { id: 'scenario', value: 'fix-failing-test' },
        { id: 'preset', value: 's11' },
      ]),
    ).toEqual(['c']);
    expect(only([{ id: 'scenario', value: 'fix-failing-test' }], 'codesmith')).toEqual(['a']);
  });

  it('shows the date whole, to the second', () => {
    expect(formatDate(new Date(2026, 10, 30, 9, 5, 7).getTime())).toBe('2026-11-30 09:05:07');
  });
});
