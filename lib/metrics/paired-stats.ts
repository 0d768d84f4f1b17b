import { createRandom } from '@/lib/clock/random';

/**
 * Paired tests for two configurations run on the same seeds: each seed gives one value per
 * side, and only the seeds where the two sides differ carry evidence. Pure functions, no I/O.
 *
 * - Done / not done: the exact McNemar test, i.e. an exact binomial test at ½ on the
 *   discordant pairs (seeds done on one side only).
 * - Cost, tokens, run time: the exact sign test, the same binomial test on the seeds where one
 *   side's value is better; equal values (ties) carry no evidence either way.
 * - The interval: a 95 % percentile interval of the mean paired difference from a paired
 *   bootstrap (seeds resampled with replacement) drawn from a seeded generator, so the same
 *   values always give the same interval.
 */

/** Two-sided level of the tests and the interval. */
export const PAIRED_ALPHA = 0.05;
/** Power the seeds-needed estimate aims at. */
export const PAIRED_POWER = 0.8;
/** Bootstrap resamples for the interval. */
export const BOOTSTRAP_RESAMPLES = 1000;

const Z_HALF_ALPHA = 1.959963984540054; // Φ⁻¹(0.975)
const Z_POWER = 0.8416212335729143; // Φ⁻¹(0.8)

/** ln(a + b) from ln a and ln b, without overflow. */
function logAdd(a: number, b: number): number {
  if (a === Number.NEGATIVE_INFINITY) return b;
  if (b === Number.NEGATIVE_INFINITY) return a;
  const hi = Math.max(a, b);
  return hi + Math.log1p(Math.exp(Math.min(a, b) - hi));
}

/**
 * Exact two-sided binomial test at p = ½: k successes of m trials. The p-value is twice the
 * smaller tail, at most 1 (the distribution is symmetric, so this is also the sum of every
 * outcome no likelier than k). m = 0 gives 1: no trial, no evidence. Summed in log space, so
 * it holds for thousands of trials where 2^-m underflows.
 */
export function exactBinomialTwoSided(k: number, m: number): number {
  if (!Number.isInteger(k) || !Number.isInteger(m) || k < 0 || m < 0 || k > m)
    throw new RangeError(`exactBinomialTwoSided: need whole 0 ≤ k ≤ m, got k=${k}, m=${m}`);
  if (m === 0) return 1;
  const low = Math.min(k, m - k);
  if (m <= 1000) {
    // 2^-m and C(m, i)·2^-m stay normal doubles up to here: summed directly, exact for small m.
    let term = 2 ** -m;
    let tail = term;
    for (let i = 1; i <= low; i++) {
      term = (term * (m - i + 1)) / i;
      tail += term;
    }
    return Math.min(1, 2 * tail);
  }
  const ln2m = m * Math.LN2;
  let logChoose = 0; // ln C(m, 0)
  let logTail = Number.NEGATIVE_INFINITY;
  for (let i = 0; i <= low; i++) {
    if (i > 0) logChoose += Math.log(m - i + 1) - Math.log(i);
    logTail = logAdd(logTail, logChoose - ln2m);
  }
  return Math.min(1, 2 * Math.exp(logTail));
}

/**
 * Seeds a paired test would need to detect an imbalance the size of the one observed, at
 * α = 0.05 two-sided and 80 % power (Connor's formula for McNemar's test, which is the sign
 * test's too): n = (z_{α/2}·√ψ + z_β·√(ψ − δ²))² / δ², where ψ is the share of seeds that
 * differ and δ the net share favouring one side. The formula is a normal approximation; at
 * least MIN_DISCORDANT / ψ seeds are asked for, because the exact test cannot reach p < 0.05 on
 * fewer differing seeds than that whatever their split. Null when nothing is imbalanced (δ = 0:
 * no seed differs, or the differing ones split evenly), so no number of seeds follows from it.
 */
export function seedsNeeded(aBetter: number, bBetter: number, n: number): number | null {
  if (n <= 0 || aBetter === bBetter) return null;
  const psi = (aBetter + bBetter) / n;
  const delta = (aBetter - bBetter) / n;
  const root = Z_HALF_ALPHA * Math.sqrt(psi) + Z_POWER * Math.sqrt(Math.max(0, psi - delta * delta));
  return Math.max(Math.ceil((root * root) / (delta * delta)), Math.ceil(MIN_DISCORDANT / psi));
}

/** Fewest differing seeds on which the exact two-sided test can reach p < 0.05 (all six one way: 2/64). */
export const MIN_DISCORDANT = 6;

/** Which side a paired test found better, or none. */
export type PairedWinner = 'a' | 'b' | null;

export interface PairedResult {
  test: 'exact McNemar' | 'exact sign test';
  /** Seeds paired. */
  n: number;
  /** Seeds where side A's value is the better one, where B's is, and where they are equal. */
  aBetter: number;
  bBetter: number;
  ties: number;
  /** Exact two-sided p-value on the seeds that differ (1 when none does). */
  p: number;
  /** Mean of A − B over the paired seeds (for done / not done: the difference of the two rates). */
  meanDiff: number;
  /** 95 % paired-bootstrap interval of meanDiff. */
  ci: [number, number];
  /** The side the test found better at α, or null: no detectable difference at this sample size. */
  better: PairedWinner;
  /** Seeds needed to detect the observed imbalance (80 % power); null when there is none. */
  seedsNeeded: number | null;
}

/** Linear-interpolated quantile of sorted values. */
function quantileOf(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/**
 * 95 % percentile interval of the mean of `diffs` from `resamples` paired-bootstrap draws,
 * from a generator seeded by `seed`: the same input always gives the same interval. All-equal
 * differences give a zero-width interval at their value.
 */
export function bootstrapMeanInterval(
  diffs: readonly number[],
  seed: number,
  resamples = BOOTSTRAP_RESAMPLES,
): [number, number] {
  const n = diffs.length;
  if (n === 0) return [0, 0];
  if (diffs.every((d) => d === diffs[0])) return [diffs[0]!, diffs[0]!];
  const random = createRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[Math.floor(random.next() * n)]!;
    means.push(sum / n);
  }
  means.sort((x, y) => x - y);
  return [quantileOf(means, PAIRED_ALPHA / 2), quantileOf(means, 1 - PAIRED_ALPHA / 2)];
}

/**
 * The paired comparison of two sides' values on the same seeds (`a[i]` and `b[i]` from seed i).
 * `better` says which way is better: 'high' for a success (done = 1), 'low' for cost, tokens
 * and time. `binary` values (0/1) are tested with the exact McNemar test, others with the exact
 * sign test; both count only seeds where the values differ, so equal values are never judged.
 */
export function pairedComparison(options: {
  a: readonly number[];
  b: readonly number[];
  better: 'high' | 'low';
  binary?: boolean;
  /** Seeds the bootstrap interval. */
  seed: number;
}): PairedResult {
  const { a, b, better } = options;
  if (a.length !== b.length)
    throw new RangeError(`pairedComparison: ${a.length} values on side A but ${b.length} on side B`);
  if (options.binary && [...a, ...b].some((v) => v !== 0 && v !== 1))
    throw new RangeError('pairedComparison: binary values must be 0 or 1');
  const diffs = a.map((v, i) => v - b[i]!);
  let aBetter = 0;
  let bBetter = 0;
  for (const d of diffs) {
    if (d === 0) continue;
    if (d > 0 === (better === 'high')) aBetter++;
    else bBetter++;
  }
  const n = diffs.length;
  const p = exactBinomialTwoSided(aBetter, aBetter + bBetter);
  const winner: PairedWinner =
    p < PAIRED_ALPHA && aBetter !== bBetter ? (aBetter > bBetter ? 'a' : 'b') : null;
  return {
    test: options.binary ? 'exact McNemar' : 'exact sign test',
    n,
    aBetter,
    bBetter,
    ties: n - aBetter - bBetter,
    p,
    meanDiff: n === 0 ? 0 : diffs.reduce((s, d) => s + d, 0) / n,
    ci: bootstrapMeanInterval(diffs, options.seed),
    better: winner,
    seedsNeeded: seedsNeeded(aBetter, bBetter, n),
  };
}
