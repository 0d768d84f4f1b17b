import type { SweepPairedComparison } from '@/lib/protocol';

/** A p-value and interval as the tooltip reads them (the finding's line carries the rest). */
function detail(m: SweepPairedComparison['metrics'][number]): string {
  if (m.n === 0) return m.line;
  const p = m.p < 0.0001 ? 'p < 0.0001' : `p = ${Number(m.p.toPrecision(2))}`;
  return `${m.test}, ${p}, on ${m.n} paired seeds (${m.a_better} favour A, ${m.b_better} favour B, ${m.ties} equal); 95 % interval of A − B: ${m.ci[0].toPrecision(3)} to ${m.ci[1].toPrecision(3)} (paired bootstrap)`;
}

/**
 * The paired comparisons of a sweep's configurations on shared seeds, as the server decided
 * them (lib/sweeps/paired-comparison.ts): ▲ only where the exact test found a side better,
 * every finding's own line, the p-value and interval in its tooltip.
 */
export function PairedComparisons({ comparisons }: { comparisons: SweepPairedComparison[] | null }) {
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
      {comparisons.map((c) => (
        <div key={`${c.a}\n${c.b}`} className="mt-2" data-testid="paired-comparison">
          <div className="font-semibold">
            {c.a_label} (A) vs {c.b_label} (B){' '}
            <span className="font-normal text-muted">
              · {c.context} · {c.seeds} shared seeds
            </span>
          </div>
          <ul className="mt-1 flex flex-col gap-0.5">
            {c.metrics.map((m) => (
              <li
                key={m.metric}
                className="flex gap-2"
                data-testid="paired-metric"
                data-metric={m.metric}
                data-better={m.better ?? undefined}
                title={detail(m)}
              >
                <span className={`w-28 shrink-0 ${m.better ? 'font-semibold text-ok' : 'text-faint'}`}>
                  {m.better ? `▲ ${m.better === 'a' ? c.a_label : c.b_label}` : '·'}
                </span>
                <span>{m.line}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
