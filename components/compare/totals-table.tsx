import type { CopiedPart, TotalsDiffRow } from '@/lib/protocol/http/compare';
import { TotalsRows } from './totals-rows';

/** The totals of both runs on /compare, under a heading that says when nothing is judged yet. */
export function TotalsTable({
  rows,
  live,
  copied,
}: {
  rows: TotalsDiffRow[];
  live: boolean;
  copied: { a: CopiedPart | null; b: CopiedPart | null };
}) {
  return (
    <section className="rounded border border-line bg-panel" data-testid="compare-totals">
      <h2 className="border-b border-line px-3 py-1.5 text-xs font-semibold">
        Totals{live ? ' so far (a run still going: nothing judged until both end)' : ''}
      </h2>
      <TotalsRows rows={rows} sides={{ a: 'A', b: 'B' }} rowTestId="totals-row" copied={copied} />
    </section>
  );
}
