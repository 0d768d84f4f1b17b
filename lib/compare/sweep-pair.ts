import type { SweepPairedComparison, SweepRunMetrics } from '@/lib/protocol';

/**
 * Two runs of a sweep, read against the sweep's paired comparisons (lib/sweeps/paired-comparison.ts):
 * /compare shows two single runs, and a sweep's paired test is about two rows over their shared
 * seeds. When the two runs are one seed's pair of two compared rows, the rows' paired result is
 * the one that says whether the difference is real; this finds it, and says why not when it
 * cannot. Nothing is tested here: the finding is the sweep's own.
 */
export type SweepPairOfRuns =
  | {
      found: true;
      comparison: SweepPairedComparison;
      /** The seed both runs ran on. */
      seed: number;
      /** The page's A is the comparison's B (the link was opened the other way round). */
      flipped: boolean;
    }
  | { found: false; why: string };

/** A run's place among its row's runs of the same seed, in job order (how the sweep pairs them). */
function rankInSeed(run: SweepRunMetrics, runs: readonly SweepRunMetrics[]): number {
  return runs
    .filter((r) => r.key === run.key && r.seed === run.seed)
    .sort((x, y) => x.job - y.job)
    .findIndex((r) => r.run_id === run.run_id);
}

/** The comparison these two runs are a seed pair of, or why they are not one. */
export function sweepPairOfRuns({
  comparisons,
  runs,
  a,
  b,
}: {
  comparisons: readonly SweepPairedComparison[] | null;
  runs: readonly SweepRunMetrics[];
  a: string;
  b: string;
}): SweepPairOfRuns {
  if (comparisons === null)
    return { found: false, why: 'the sweep has not ended: its paired comparisons are made when it ends' };
  const runA = runs.find((r) => r.run_id === a);
  const runB = runs.find((r) => r.run_id === b);
  if (!runA || !runB) return { found: false, why: `run ${!runA ? a : b} is not one of this sweep's runs` };
  if (runA.key === runB.key)
    return {
      found: false,
      why: 'both runs are of the same row: the sweep compares rows that differ only by configuration',
    };
  if (runA.seed !== runB.seed)
    return {
      found: false,
      why: `the two runs ran on different seeds (${runA.seed} and ${runB.seed}): a paired comparison pairs runs of the same seed`,
    };
  if (rankInSeed(runA, runs) !== rankInSeed(runB, runs))
    return {
      found: false,
      why: `seed ${runA.seed} ran more than once in a row, and these two runs are not the pair the sweep matched`,
    };
  const straight = comparisons.find((c) => c.a === runA.key && c.b === runB.key);
  const other = comparisons.find((c) => c.a === runB.key && c.b === runA.key);
  const comparison = straight ?? other;
  if (!comparison)
    return {
      found: false,
      why: 'the sweep did not compare their rows: they differ in more than configuration (scenario, fault plan, target, model or prompt set)',
    };
  return { found: true, comparison, seed: runA.seed, flipped: !straight };
}

/**
 * The first seed pair of a comparison (the smallest seed's first runs, as the sweep matched
 * them), for a link to /compare; null while the runs are not in.
 */
export function firstSeedPair(
  comparison: SweepPairedComparison,
  runs: readonly SweepRunMetrics[],
): { seed: number; a: string; b: string } | null {
  const ofRow = (key: string) => runs.filter((r) => r.key === key).sort((x, y) => x.job - y.job);
  const bRuns = ofRow(comparison.b);
  const seeds = [...new Set(ofRow(comparison.a).map((r) => r.seed))].sort((x, y) => x - y);
  for (const seed of seeds) {
    const a = ofRow(comparison.a).find((r) => r.seed === seed);
    const b = bRuns.find((r) => r.seed === seed);
    if (a && b) return { seed, a: a.run_id, b: b.run_id };
  }
  return null;
}
