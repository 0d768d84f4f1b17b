import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../api/client';
import { runRowValues } from './runs-columns';
import {
  DEFAULT_SORTING,
  filterOptions,
  RUN_FILTER_FNS,
  runsListFromSearch,
  runsListToSearch,
  type RunsListState,
} from './runs-filters';

const base: RunSummary = {
  id: '',
  created_at: '2026-11-30T10:00:00.000Z',
  status: 'completed',
  reason: 'end_turn',
  complete: true,
  verdict: 'done',
  vendor: 'sim-anthropic',
  model: 'claude-sim-sonnet',
  scenario: 'fix-failing-test',
  title: null,
  vendors: [{ vendor: 'sim-anthropic', model: 'claude-sim-sonnet' }],
  overrides: [],
  preset: 'codesmith',
  seed: 1,
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
const rows = [
  base,
  { ...base, id: 'b', status: 'failed', reason: 'attempt_budget', verdict: null, preset: 'naive' },
  {
    ...base,
    id: 'c',
    status: 'failed',
    reason: 'retries_exhausted',
    verdict: 'not_done',
    scenario: 'huge-log',
  },
].map((r) => runRowValues(r as RunSummary));

describe('runs list filters', () => {
  it('a select offers the values the runs have, with counts; outcome offers statuses and whole outcomes; verdict offers "no verdict"', () => {
    expect(filterOptions(rows, 'scenario')).toEqual([
      { value: 'fix-failing-test', label: 'fix-failing-test', count: 2 },
      { value: 'huge-log', label: 'huge-log', count: 1 },
    ]);
    expect(filterOptions(rows, 'outcome').map((o) => [o.value, o.count])).toEqual([
      ['completed', 1],
      ['completed · end_turn', 1],
      ['failed', 2],
      ['failed · attempt_budget', 1],
      ['failed · retries_exhausted', 1],
    ]);
    expect(filterOptions(rows, 'verdict').map((o) => [o.value, o.label])).toEqual([
      ['none', 'no verdict'],
      ['done', 'task done'],
      ['not_done', 'task not done'],
    ]);
  });

  it('the vendor / model select offers each vendor a run used, and a swapped run matches every one of them', () => {
    const swapped = runRowValues({
      ...base,
      id: 's',
      vendors: [
        { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
        { vendor: 'sim-openai', model: 'gpt-sim-4o' },
      ],
    });
    const all = [...rows, swapped];
    expect(filterOptions(all, 'vendorModel').map((o) => [o.value, o.count])).toEqual([
      ['sim-anthropic / claude-sim-sonnet', 4],
      ['sim-openai / gpt-sim-4o', 1],
    ]);
    const matches = (value: string) =>
      all
        .filter((row) =>
          RUN_FILTER_FNS.vendorModel!({ original: row } as never, 'vendorModel', value, () => {}),
        )
        .map((r) => r.id);
    expect(matches('sim-openai / gpt-sim-4o')).toEqual(['s']);
    expect(matches('sim-anthropic / claude-sim-sonnet')).toEqual(['', 'b', 'c', 's']);
  });

  it('the whole list state goes into the address and comes back the same', () => {
    const state: RunsListState = {
      words: 'overloaded',
      sorting: [{ id: 'seed', desc: false }],
      columnFilters: [
        { id: 'title', value: 'slug' },
        { id: 'scenario', value: 'fix-failing-test' },
        { id: 'vendorModel', value: 'sim-openai / gpt-sim-4o' },
        { id: 'preset', value: 's11' },
        { id: 'seed', value: '42' },
        { id: 'outcome', value: 'failed · attempt_budget' },
        { id: 'verdict', value: 'none' },
        { id: 'date', value: { from: '2026-11-01', to: '2026-11-30' } },
      ],
    };
    const search = runsListToSearch(state);
    expect(search).toContain('model=sim-openai+%2F+gpt-sim-4o');
    expect(runsListFromSearch(new URLSearchParams(search))).toEqual(state);
    // An unfiltered, newest-first list is a bare /runs.
    expect(runsListToSearch({ words: '', sorting: DEFAULT_SORTING, columnFilters: [] })).toBe('');
  });

  it('a hand-edited address with junk in it loses the junk, not the page', () => {
    const read = runsListFromSearch(
      new URLSearchParams(
        'verdict=maybe&from=yesterday&to=2026-11-30&sort=nonsense&preset=&scenario=huge-log',
      ),
    );
    expect(read).toEqual({
      words: '',
      sorting: DEFAULT_SORTING,
      columnFilters: [
        { id: 'scenario', value: 'huge-log' },
        { id: 'date', value: { to: '2026-11-30' } },
      ],
    });
  });
});
