import Link from 'next/link';
import { compareUrl } from '@/lib/client/api/compare';
import { firstSeedPair } from '@/lib/compare/sweep-pair';
import type { SweepPairedComparison, SweepRunMetrics } from '@/lib/protocol';

/** A p-value and interval as the tooltip reads them (the finding's line carries the rest). */
function detail(m: SweepPairedComparison['metrics'][number]): string {
  if (m.n === 0) return m.line;
  const p = m.p < 0.0001 ? 'p < 0.0001' : `p = ${Number(m.p.toPrecision(2))}`;
  return `${m.test}, ${p}, on ${m.n} paired seeds (${m.a_better} favour A, ${m.b_better} favour B, ${m.ties} equal); 95 % interval of A − B: ${m.ci[0].toPrecision(3)} to ${m.ci[1].toPrecision(3)} (paired bootstrap)`;
}

/**
 * The paired comparisons of a sweep's configurations on shared seeds, as the server decided
 * them (lib/sweeps/paired-comparison.ts): ▲ only where the exact test found a side better,
 * every finding's own line, the p-value and interval in its tooltip; each pair links its first
 * seed's two runs to /compare, which shows this same result beside them.
 */
export function PairedComparisons({
  comparisons,
  sweepId,
  runs,
}: {
  comparisons: SweepPairedComparison[] | null;
  sweepId: string;
  runs: readonly SweepRunMetrics[];
}) {
  if (comparisons === null)
    return (
      <p className="text-2xs text-faint" data-testid="paired-pending">
        Paired comparisons appear when the sweep ends.
      </p>
    );
  if (comparisons.length === 0) return null;
  return (
    <section className="rounded border border-line bg-panel p-3 text-xs" data-testid="paired-comparisons">
      <h2 className="mb-1 text-2xs font-medium tracking-wide text-faint uppercase">
        Paired on shared seeds · ▲ only where the exact test finds a difference (p &lt; 0.05)
      </h2>
      {comparisons.map((c) => {
        const pair = firstSeedPair(c, runs);
        return (
          <div key={`${c.a}\n${c.b}`} className="mt-2" data-testid="paired-comparison">
            <div className="font-semibold">
              {c.a_label} (A) vs {c.b_label} (B){' '}
              <span className="font-normal text-muted">
                · {c.context} · {c.seeds} shared seeds
              </span>
              {pair && (
                <Link
                  href={compareUrl(pair.a, pair.b, sweepId)}
                  className="ml-2 font-normal text-takeover underline"
                  data-testid="paired-compare-link"
                >
                  seed {pair.seed}’s two runs in Compare
                </Link>
              )}
            </div>
            <PairedMetricList comparison={c} letters={{ a: c.a_label, b: c.b_label }} />
          </div>
        );
      })}
    </section>
  );
}

/** One comparison's findings, a line a metric: ▲ and the side's name only where the test found it better. */
export function PairedMetricList({
  comparison,
  letters,
}: {
  comparison: SweepPairedComparison;
  /** What ▲ names each side by. */
  letters: { a: string; b: string };
}) {
  return (
    <ul className="mt-1 flex flex-col gap-0.5">
      {comparison.metrics.map((m) => (
        <li
          key={m.metric}
          className="flex gap-2"
          data-testid="paired-metric"
          data-metric={m.metric}
          data-better={m.better ?? undefined}
          title={detail(m)}
        >
          <span className={`w-28 shrink-0 ${m.better ? 'font-semibold text-ok' : 'text-faint'}`}>
            {m.better ? `▲ ${letters[m.better]}` : '·'}
          </span>
          <span>{m.line}</span>
        </li>
      ))}
    </ul>
  );
}
