'use client';

import Link from 'next/link';
import { useSweep, useSweepRuns } from '@/lib/client/api/sweep-queries';
import { sweepPairOfRuns } from '@/lib/compare/sweep-pair';
import { PairedMetricList } from '@/components/sweeps/paired-comparisons';

/**
 * Two runs opened from a sweep (`/compare?…&sweep=<id>`): whether their difference is real is
 * not a question one pair of runs answers, so this shows the paired result of their two rows
 * over every seed they share, as the sweep decided it (▲ only where its exact test found a side
 * better), or why these two runs are not one of its seed pairs.
 */
export function SweepPairedResult({ sweep, a, b }: { sweep: string; a: string; b: string }) {
  const detail = useSweep(sweep, false);
  const runs = useSweepRuns(sweep, false);
  const error = detail.error ?? runs.error;
  const back = (
    <Link href={`/sweeps/${encodeURIComponent(sweep)}`} className="text-takeover underline">
      {sweep}
    </Link>
  );
  if (error)
    return (
      <Box>
        Could not read {back}: {error.message}
      </Box>
    );
  if (!detail.data || !runs.data) return <Box>Reading {back}’s paired result…</Box>;
  const pair = sweepPairOfRuns({ comparisons: detail.data.comparisons, runs: runs.data, a, b });
  if (!pair.found)
    return (
      <Box found="no">
        No paired result from {back} for these two runs: {pair.why}.
      </Box>
    );
  const { comparison: c, seed, flipped } = pair;
  // ▲ names a side by its letter on this page and its configuration.
  const page = flipped ? { a: 'B', b: 'A' } : { a: 'A', b: 'B' };
  return (
    <Box found="yes">
      <div className="font-semibold">
        Is the difference real? Paired over the {c.seeds} seeds both rows of {back} ran
      </div>
      <p className="mt-0.5 text-muted">
        These two runs are seed {seed}: one pair of {c.seeds}. {c.a_label} (this page’s {page.a}) vs{' '}
        {c.b_label} (this page’s {page.b}) · {c.context}
        {flipped ? ' · the sweep’s A is this page’s B, so “A − B” below is B − A here' : ''}.
      </p>
      <PairedMetricList
        comparison={c}
        letters={{ a: `${page.a} ${c.a_label}`, b: `${page.b} ${c.b_label}` }}
      />
    </Box>
  );
}

function Box({ children, found }: { children: React.ReactNode; found?: 'yes' | 'no' }) {
  return (
    <section
      className="rounded border border-line bg-panel px-3 py-2 text-xs"
      data-testid="compare-paired"
      data-found={found ?? ''}
    >
      {children}
    </section>
  );
}
