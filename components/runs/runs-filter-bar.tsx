'use client';

import type { Table } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { RunRowValues } from '@/lib/client/tables/runs-columns';
import {
  RUN_FILTERS,
  filterOptions,
  type DateRange,
  type RunFilterSpec,
} from '@/lib/client/tables/runs-filters';

const CONTROL =
  'rounded border border-line bg-panel px-1.5 py-0.5 font-mono text-2xs text-fg focus:border-takeover focus:outline-none';

/**
 * One filter per column a person narrows a list of runs by: selects for scenario, vendor and
 * model, preset, outcome and verdict (each value with its count), text for title and seed, and
 * a date range. Empty means no filter; the table and the address follow every change.
 */
export function RunsFilterBar({
  table,
  rows,
}: {
  table: Table<RunRowValues>;
  rows: readonly RunRowValues[];
}) {
  const filtered = table.getState().columnFilters.length > 0;
  return (
    <div
      className="flex flex-wrap items-end gap-x-2 gap-y-1 text-2xs"
      data-testid="runs-column-filters"
      role="group"
      aria-label="filter by column"
    >
      {RUN_FILTERS.map((spec) => (
        <ColumnFilter key={spec.id} spec={spec} table={table} rows={rows} />
      ))}
      {filtered && (
        <button
          type="button"
          data-testid="runs-filters-clear"
          className="px-1 py-0.5 text-takeover underline"
          onClick={() => table.resetColumnFilters()}
        >
          clear filters
        </button>
      )}
    </div>
  );
}

function ColumnFilter({
  spec,
  table,
  rows,
}: {
  spec: RunFilterSpec;
  table: Table<RunRowValues>;
  rows: readonly RunRowValues[];
}) {
  const column = table.getColumn(spec.id);
  const value = column?.getFilterValue();
  const options = useMemo(() => (spec.kind === 'select' ? filterOptions(rows, spec.id) : []), [rows, spec]);
  if (!column) return null;
  const set = (next: unknown) => column.setFilterValue(next);

  if (spec.kind === 'date') {
    const range = (value ?? {}) as DateRange;
    const setEnd = (end: keyof DateRange, day: string) => {
      const next: DateRange = { ...range, [end]: day || undefined };
      set(next.from || next.to ? next : undefined);
    };
    return (
      <span className="flex flex-col gap-0.5">
        <span className="text-faint">{spec.label}</span>
        <span className="flex items-center gap-1">
          <input
            type="date"
            aria-label="from date"
            data-testid="runs-filter-from"
            className={CONTROL}
            value={range.from ?? ''}
            onChange={(e) => setEnd('from', e.target.value)}
          />
          <span className="text-faint">–</span>
          <input
            type="date"
            aria-label="to date"
            data-testid="runs-filter-to"
            className={CONTROL}
            value={range.to ?? ''}
            onChange={(e) => setEnd('to', e.target.value)}
          />
        </span>
      </span>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <label className="flex flex-col gap-0.5">
      <span className="text-faint">{spec.label}</span>
      {spec.kind === 'select' ? (
        <select
          data-testid={`runs-filter-${spec.id}`}
          className={`${CONTROL} max-w-[14rem]`}
          value={text}
          onChange={(e) => set(e.target.value || undefined)}
        >
          <option value="">all</option>
          {/* A value from a shared address that no run has (yet) stays shown, matching nothing. */}
          {text && !options.some((o) => o.value === text) && <option value={text}>{text} (0)</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label} ({o.count})
            </option>
          ))}
        </select>
      ) : (
        <input
          data-testid={`runs-filter-${spec.id}`}
          type="search"
          inputMode={spec.id === 'seed' ? 'numeric' : undefined}
          placeholder={spec.id === 'seed' ? 'any' : 'contains…'}
          className={`${CONTROL} ${spec.id === 'seed' ? 'w-16' : 'w-36'}`}
          value={text}
          onChange={(e) => set(e.target.value || undefined)}
        />
      )}
    </label>
  );
}
