import { formatMs, formatTokens, formatUsd } from '@/lib/client/format';
import type { TotalsDiffRow } from '@/lib/protocol/http/compare';

function show(row: TotalsDiffRow, value: TotalsDiffRow['a']): string {
  if (value === null) return '–';
  if (typeof value === 'string') return value.replace(/_/g, ' ');
  switch (row.unit) {
    case 'ms':
      return formatMs(value);
    case 'tokens':
      return formatTokens(value);
    case 'usd':
      return formatUsd(value);
    default:
      return String(value);
  }
}

/** The totals of both runs; the side that did better is said in words, not only in colour. */
export function TotalsTable({ rows, live }: { rows: TotalsDiffRow[]; live: boolean }) {
  return (
    <section className="rounded border border-line bg-panel" data-testid="compare-totals">
      <h2 className="border-b border-line px-3 py-1.5 text-xs font-semibold">Totals{live ? ' so far (a run still going: nothing judged until both end)' : ''}</h2>
      <table className="w-full text-xs">
        <thead>
          <tr className="text-left text-2xs text-muted">
            <th className="px-3 py-1 font-normal">&nbsp;</th>
            <th className="px-2 py-1 font-normal">A</th>
            <th className="px-2 py-1 font-normal">B</th>
            <th className="px-2 py-1 font-normal">better</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-line" data-testid="totals-row" data-total={row.id} data-better={row.better ?? ''}>
              <td className="px-3 py-1">{row.label}</td>
              <td className={`tabular px-2 py-1 font-mono ${row.better === 'a' ? 'font-semibold text-ok' : row.better === 'b' ? 'text-fail' : ''}`}>{show(row, row.a)}</td>
              <td className={`tabular px-2 py-1 font-mono ${row.better === 'b' ? 'font-semibold text-ok' : row.better === 'a' ? 'text-fail' : ''}`}>{show(row, row.b)}</td>
              <td className="px-2 py-1 text-2xs">{row.better ? `▲ ${row.better.toUpperCase()}` : row.a !== null && row.a === row.b ? 'same' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
