import { formatMs, formatTokens, formatUsd, formatUsdApart } from '@/lib/run-view/format';
import type { CopiedPart, TotalsDiffRow } from '@/lib/protocol/http/compare';
import { copiedNote } from './copied-note';

function show(row: TotalsDiffRow, side: 'a' | 'b'): string {
  const value = row[side];
  if (value === null) return '–';
  if (typeof value === 'string') return value.replace(/_/g, ' ');
  // Two costs that differ are never written as the same figure.
  if (row.unit === 'usd' && typeof row.a === 'number' && typeof row.b === 'number')
    return formatUsdApart(row.a, row.b)[side === 'a' ? 0 : 1];
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

/**
 * The totals of two runs side by side, as lib/compare folds them; the side that did better is
 * said in words, not only in colour. Shared by /compare (sides A and B) and a lesson's report
 * (mechanism on and off), which name the sides differently.
 */
export function TotalsRows({
  rows,
  sides,
  rowTestId,
  className = '',
  copied,
}: {
  rows: TotalsDiffRow[];
  sides: { a: string; b: string };
  rowTestId: string;
  className?: string;
  /** A fork's part copied from its parent, said under the totals it is counted in. */
  copied?: { a: CopiedPart | null; b: CopiedPart | null };
}) {
  return (
    <table className={`w-full text-xs ${className}`}>
      <thead>
        <tr className="text-left text-2xs text-muted">
          {/* The corner over the row names: an empty data cell, not a header without a name. */}
          <td className="px-3 py-1" />
          <th className="px-2 py-1 font-normal">{sides.a}</th>
          <th className="px-2 py-1 font-normal">{sides.b}</th>
          <th className="px-2 py-1 font-normal">better</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.id}
            className="border-t border-line"
            data-testid={rowTestId}
            data-total={row.id}
            data-better={row.better ?? ''}
          >
            <td className="px-3 py-1">{row.label}</td>
            <td
              className={`tabular px-2 py-1 font-mono ${row.better === 'a' ? 'font-semibold text-ok' : row.better === 'b' ? 'text-fail' : ''}`}
            >
              {show(row, 'a')}
              <CopiedLine note={copiedNote(row, row.a, copied?.a ?? null)} />
            </td>
            <td
              className={`tabular px-2 py-1 font-mono ${row.better === 'b' ? 'font-semibold text-ok' : row.better === 'a' ? 'text-fail' : ''}`}
            >
              {show(row, 'b')}
              <CopiedLine note={copiedNote(row, row.b, copied?.b ?? null)} />
            </td>
            <td className="px-2 py-1 text-2xs">
              {row.better ? (
                `▲ ${sides[row.better]}`
              ) : row.note ? (
                <span className="text-muted">{row.note}</span>
              ) : row.a !== null && row.a === row.b ? (
                'same'
              ) : (
                ''
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CopiedLine({ note }: { note: string[] | null }) {
  if (!note) return null;
  return (
    <span className="block font-sans text-2xs font-normal text-muted" data-testid="copied-note">
      {note.map((line) => (
        <span key={line} className="block">
          {line}
        </span>
      ))}
    </span>
  );
}
