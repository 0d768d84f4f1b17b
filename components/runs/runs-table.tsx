'use client';

import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnFiltersState,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { countOf, formatMs, formatUsd } from '@/lib/run-view/format';
import { useRuns } from '@/lib/client/api/runs';
import {
  formatDate,
  matchesEveryWord,
  MODEL_TITLE_NOTE,
  RUN_COLUMN_DEFS,
  runRowValues,
  type RunColumnId,
  type RunRowValues,
} from '@/lib/client/tables/runs-columns';
import { runsListFromSearch, runsListToSearch } from '@/lib/client/tables/runs-filters';
import { Pill } from '@/components/ui/pill';
import { VerdictPill } from '@/components/ui/verdict-pill';
import type { Tone } from '@/components/ui/tone';
import { RunRowActions } from './run-row-actions';
import { RunsFilterBar } from './runs-filter-bar';

const ROW = 32;
// title · scenario · vendor/model · preset · overrides · faults · seed · outcome · verdict · duration · cost · date · actions
const COLS =
  'grid grid-cols-[minmax(8rem,1.2fr)_7.5rem_minmax(17.5rem,2fr)_5rem_minmax(9rem,1.2fr)_minmax(6rem,1fr)_3rem_minmax(11rem,1.2fr)_7rem_4.5rem_4rem_8.5rem_5.5rem] items-center gap-2 px-3';
const MIN_WIDTH = 'min-w-[100rem]';
const STATUS_TONE: Record<string, Tone> = {
  running: 'run',
  completed: 'ok',
  failed: 'fail',
  aborted: 'neutral',
};
const RIGHT: ReadonlySet<RunColumnId> = new Set(['seed', 'duration', 'cost']);

function Cell({ id, run }: { id: RunColumnId; run: RunRowValues }) {
  switch (id) {
    case 'title':
      return (
        <Link
          href={`/runs/${run.id}`}
          data-testid="runs-row-link"
          className="truncate text-fg underline decoration-line hover:decoration-fg"
          title={run.title ? `${run.title}\n${MODEL_TITLE_NOTE}` : run.id}
        >
          {run.title || <span className="font-mono text-2xs text-faint">{run.id.slice(0, 8)}</span>}
          {run.promptSet && <span className="text-2xs text-takeover"> · {run.promptSet}</span>}
        </Link>
      );
    case 'outcome': {
      const reason = run.outcome.split(' · ')[1];
      return (
        <span className="flex min-w-0 items-center gap-1" title={run.outcome}>
          <Pill tone={STATUS_TONE[run.status] ?? 'neutral'}>{run.status}</Pill>
          {reason && (
            <span data-testid="runs-outcome-reason" className="truncate font-mono text-2xs text-faint">
              {reason}
            </span>
          )}
          {run.imported && <Pill>imported</Pill>}
        </span>
      );
    }
    case 'verdict': {
      const verdict = run.verdictId;
      return verdict ? <VerdictPill verdict={verdict} /> : <span className="text-faint">–</span>;
    }
    case 'duration':
      return (
        <span className="tabular font-mono text-2xs">
          {run.duration === null ? '–' : formatMs(run.duration)}
        </span>
      );
    case 'cost':
      return (
        <span className="tabular font-mono text-2xs">{run.cost === null ? '–' : formatUsd(run.cost)}</span>
      );
    case 'date':
      return (
        <span className="tabular font-mono text-2xs whitespace-nowrap text-muted">
          {formatDate(run.date)}
        </span>
      );
    case 'seed':
      return <span className="tabular font-mono text-2xs">{run.seed ?? '–'}</span>;
    case 'vendorModel': {
      const stops = run.vendorStops;
      const all =
        run.vendorModels.length > 1
          ? `${run.vendorModels.length} vendors / models in order:\n${run.vendorModels.join('\n')}`
          : run.vendorModel;
      if (stops.length === 1) {
        return (
          <span className="truncate font-mono text-2xs" data-stops={1} title={all}>
            {run.vendorModel}
          </span>
        );
      }
      // A swapped run: every vendor on the first line, the models under them, in order.
      return (
        <span
          className="flex min-w-0 flex-col font-mono text-2xs leading-tight"
          data-stops={stops.length}
          title={all}
        >
          <span className="truncate" data-testid="runs-vendors">
            {stops.map((s) => s.vendor).join(' → ')}
          </span>
          <span className="truncate text-faint">{stops.map((s) => s.model).join(' → ')}</span>
        </span>
      );
    }
    case 'overrides':
      return run.overrides ? (
        <span
          className="line-clamp-2 font-mono text-2xs leading-tight break-words"
          title={`changed from the ${run.preset || 'run’s'} preset: ${run.overrides}`}
        >
          {run.overrides}
        </span>
      ) : (
        <span className="text-faint" title={`the ${run.preset || 'run’s'} preset as it is`}>
          none
        </span>
      );
    default: {
      const text = run[id];
      return (
        <span className={`truncate ${id === 'preset' ? 'font-mono text-2xs' : ''}`} title={text}>
          {text || <span className="text-faint">–</span>}
        </span>
      );
    }
  }
}

/**
 * Every run: sortable by any column, filtered per column and by words across them all,
 * virtualized. Filters and sort live in the address (/runs?scenario=…&outcome=…), so a
 * filtered list can be shared and survives a reload.
 */
export function RunsTable() {
  const { data, error, isLoading } = useRuns();
  const params = useSearchParams();
  const [initial] = useState(() => runsListFromSearch(params));
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => (data ?? []).map(runRowValues), [data]);
  const [sorting, setSorting] = useState<SortingState>(initial.sorting);
  const [filter, setFilter] = useState(initial.words);
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>(initial.columnFilters);
  useEffect(() => {
    const search = runsListToSearch({ columnFilters, words: filter, sorting });
    const url = `${window.location.pathname}${search ? `?${search}` : ''}`;
    if (url !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(window.history.state, '', url);
  }, [columnFilters, filter, sorting]);
  const table = useReactTable({
    data: rows,
    columns: RUN_COLUMN_DEFS,
    state: { sorting, globalFilter: filter, columnFilters },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    onColumnFiltersChange: setColumnFilters,
    globalFilterFn: matchesEveryWord,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  const shown = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 20,
  });

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2 text-2xs">
        <input
          data-testid="runs-filter"
          type="search"
          aria-label="filter runs"
          placeholder="filter: words in any column (scenario, fault, preset, outcome, prompt set…)"
          className="w-full max-w-md rounded border border-line bg-panel px-2 py-1 text-xs focus:border-takeover focus:outline-none"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <span className="text-faint" data-testid="runs-count">
          {filter || columnFilters.length > 0
            ? `${shown.length} of ${countOf(rows.length, 'run')}`
            : countOf(rows.length, 'run')}
        </span>
      </div>
      <RunsFilterBar table={table} rows={rows} />
      <div
        ref={scrollRef}
        className="min-h-0 flex-1 overflow-auto rounded border border-line bg-panel"
        data-testid="runs-table"
      >
        <div className={MIN_WIDTH} role="table" aria-label="runs" aria-rowcount={shown.length}>
          <div
            role="row"
            className={`${COLS} sticky top-0 z-10 h-7 border-b border-line bg-panel text-2xs tracking-wide text-faint uppercase`}
          >
            {table.getFlatHeaders().map((header) => {
              const sorted = header.column.getIsSorted();
              const id = header.column.id as RunColumnId;
              return (
                // The header cell carries the sort state; the button inside it sorts (a button
                // cannot itself be a column header).
                <div
                  key={header.id}
                  role="columnheader"
                  data-testid={`runs-sort-${id}`}
                  aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                  className="flex"
                >
                  <button
                    type="button"
                    onClick={header.column.getToggleSortingHandler()}
                    className={`flex w-full items-center gap-1 uppercase hover:text-fg ${RIGHT.has(id) ? 'justify-end' : ''} ${sorted ? 'text-fg' : ''}`}
                    title={`sort by ${String(header.column.columnDef.header)}`}
                  >
                    {flexRender(header.column.columnDef.header, header.getContext())}
                    <span aria-hidden>{sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}</span>
                  </button>
                </div>
              );
            })}
            <span />
          </div>
          {error && <div className="p-3 text-xs text-fail">Could not load runs: {error.message}</div>}
          {isLoading && <div className="p-3 text-xs text-faint">Loading…</div>}
          {!isLoading && !error && rows.length === 0 && (
            <div className="p-3 text-xs text-faint">
              No runs yet. Start one in the playground or import a trace.
            </div>
          )}
          {rows.length > 0 && shown.length === 0 && (
            <div className="p-3 text-xs text-faint">
              No run matches {filter ? `“${filter}”` : null}
              {filter && columnFilters.length > 0 ? ' and ' : null}
              {columnFilters.length > 0 ? 'the column filters' : null}.
            </div>
          )}
          <div className="relative" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const run = shown[item.index]!.original;
              return (
                <div
                  key={run.id}
                  role="row"
                  data-testid="runs-row"
                  data-status={run.status}
                  data-run-id={run.id}
                  className={`${COLS} absolute inset-x-0 border-b border-line text-xs hover:bg-sunken`}
                  style={{ top: item.start, height: ROW }}
                >
                  {RUN_COLUMN_DEFS.map((column) => (
                    <span
                      key={column.id}
                      role="cell"
                      data-col={column.id}
                      className={`flex min-w-0 ${RIGHT.has(column.id as RunColumnId) ? 'justify-end' : ''}`}
                    >
                      <Cell id={column.id as RunColumnId} run={run} />
                    </span>
                  ))}
                  <RunRowActions id={run.id} />
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
