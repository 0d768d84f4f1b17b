'use client';

import { useMemo, useState } from 'react';
import { bestValues, visibleColumns } from '@/lib/client/tables/sweep-columns';
import type { SweepRow } from '@/lib/protocol';

/** The results table: one row per cell, sortable by any column, the best value per column marked. */
export function ResultsTable({
  rows,
  selected,
  onSelect,
}: {
  rows: SweepRow[];
  selected: string | undefined;
  onSelect: (key: string) => void;
}) {
  const [sort, setSort] = useState<{ id: string; dir: 1 | -1 } | undefined>();
  const best = useMemo(() => bestValues(rows), [rows]);
  const columns = useMemo(() => visibleColumns(rows), [rows]);
  const sorted = useMemo(() => {
    const column = columns.find((c) => c.id === sort?.id);
    if (!column || !sort) return rows;
    return [...rows].sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      // A cell with no figure (NaN: "—") sorts last whichever way.
      if (typeof x === 'number' && typeof y === 'number' && (Number.isNaN(x) || Number.isNaN(y)))
        return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
      return (
        (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) *
        sort.dir
      );
    });
  }, [rows, columns, sort]);

  return (
    <div className="overflow-x-auto rounded border border-line bg-panel">
      <table className="w-full text-xs" data-testid="sweep-table">
        <thead>
          <tr className="border-b border-line text-2xs tracking-wide text-faint uppercase">
            {columns.map((c) => (
              <th
                key={c.id}
                title={c.title}
                className={`px-2 py-1.5 font-medium ${c.numeric ? 'text-right' : 'text-left'}`}
                aria-sort={sort?.id === c.id ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
              >
                <button
                  type="button"
                  className="uppercase hover:text-fg"
                  onClick={() =>
                    setSort((s) => ({
                      id: c.id,
                      dir: s?.id === c.id ? (-s.dir as 1 | -1) : c.better === 'low' || !c.numeric ? 1 : -1,
                    }))
                  }
                >
                  {c.header}
                  {sort?.id === c.id ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr
              key={row.key}
              data-testid="sweep-row"
              data-key={row.key}
              onClick={() => onSelect(row.key)}
              className={`cursor-pointer border-b border-line hover:bg-sunken ${selected === row.key ? 'bg-takeover-soft' : ''}`}
            >
              {columns.map((c) => {
                const isBest =
                  row.runs > 0 && (!c.effort || row.completion_rate > 0) && best.get(c.id) === c.value(row);
                const blank = c.blank?.(row);
                return (
                  <td
                    key={c.id}
                    className={`px-2 py-1 ${c.numeric ? 'tabular text-right font-mono text-2xs whitespace-nowrap' : 'truncate'} ${isBest ? 'font-semibold text-ok' : ''}`}
                    data-col={c.id}
                    data-best={isBest || undefined}
                    data-blank={blank ? true : undefined}
                    title={blank ?? (isBest ? 'best in this column' : undefined)}
                  >
                    {c.show(row)}
                    {blank && <span className="sr-only"> ({blank})</span>}
                    {isBest ? ' ★' : ''}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
