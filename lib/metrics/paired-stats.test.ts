import { describe, expect, it } from 'vitest';
import { bootstrapMeanInterval, exactBinomialTwoSided, pairedComparison, seedsNeeded } from './paired-stats';

describe('exactBinomialTwoSided', () => {
  it('gives the exact McNemar p-values worked by hand', () => {
    // 1 of 8 discordant pairs one way: 2·(C(8,0) + C(8,1)) / 2^8 = 2·9/256.
    expect(exactBinomialTwoSided(1, 8)).toBe(0.0703125);
    expect(exactBinomialTwoSided(7, 8)).toBe(0.0703125);
    // All 6 one way: 2/64; all 5 one way: 2/32 (not below 0.05: five seeds can never show a difference).
    expect(exactBinomialTwoSided(0, 6)).toBe(0.03125);
    expect(exactBinomialTwoSided(0, 5)).toBe(0.0625);
    expect(exactBinomialTwoSided(10, 10)).toBe(2 / 1024);
    // 3 of 20: 2·(1 + 20 + 190 + 1140) / 2^20.
    expect(exactBinomialTwoSided(3, 20)).toBeCloseTo((2 * 1351) / 2 ** 20, 15);
  });

  it('matches the binomial tail for larger samples (2·P(X ≤ k), X ~ Bin(m, ½))', () => {
    expect(exactBinomialTwoSided(40, 100)).toBeCloseTo(0.05688793364098089, 12);
    expect(exactBinomialTwoSided(480, 1000)).toBeCloseTo(0.2174482932041415, 10);
    // Agresti's presidential-approval table: 86 vs 150 discordant pairs.
    expect(exactBinomialTwoSided(86, 236)).toBeCloseTo(3.7159361395713866e-5, 15);
  });

  it('is 1 for no discordant pair or an even split, and never underflows to 0 for a real imbalance', () => {
    expect(exactBinomialTwoSided(0, 0)).toBe(1);
    expect(exactBinomialTwoSided(5, 10)).toBe(1);
    expect(exactBinomialTwoSided(1000, 2000)).toBe(1);
    const p = exactBinomialTwoSided(4900, 10_000);
    expect(p).toBeGreaterThan(0.04);
    expect(p).toBeLessThan(0.05);
  });

  it('refuses counts that are not a binomial outcome', () => {
    expect(() => exactBinomialTwoSided(3, 2)).toThrow(/0 ≤ k ≤ m/);
    expect(() => exactBinomialTwoSided(1.5, 4)).toThrow(RangeError);
  });
});

describe('seedsNeeded', () => {
  it("is Connor's McNemar sample size for the observed discordance", () => {
    // ψ = 20/200 = 0.1, δ = 10/200 = 0.05: (1.96·√0.1 + 0.8416·√0.0975)² / 0.0025 = 311.59 → 312.
    expect(seedsNeeded(15, 5, 200)).toBe(312);
    expect(seedsNeeded(5, 15, 200)).toBe(312);
    // 3 vs 1 of 200: 1567.4 → 1568.
    expect(seedsNeeded(3, 1, 200)).toBe(1568);
  });

  it('asks for at least the six differing seeds the exact test needs to reject', () => {
    // 9 of 10 differ, all one way: the formula gives 5.5 → 6, but six differing seeds at ψ = 0.9 take 7.
    expect(seedsNeeded(9, 0, 10)).toBe(7);
    expect(exactBinomialTwoSided(0, 5)).toBeGreaterThan(0.05);
    expect(exactBinomialTwoSided(0, 6)).toBeLessThan(0.05);
  });

  it('is null when nothing is imbalanced: no seed differs, or they split evenly', () => {
    expect(seedsNeeded(0, 0, 200)).toBeNull();
    expect(seedsNeeded(7, 7, 200)).toBeNull();
    expect(seedsNeeded(0, 0, 0)).toBeNull();
  });
});

describe('bootstrapMeanInterval', () => {
  it('is the same for the same values and seed, and brackets the mean', () => {
    const diffs = Array.from({ length: 50 }, (_, i) => (i % 5) - 1);
    const first = bootstrapMeanInterval(diffs, 7);
    expect(bootstrapMeanInterval(diffs, 7)).toEqual(first);
    const mean = diffs.reduce((s, d) => s + d, 0) / diffs.length;
    expect(first[0]).toBeLessThan(mean);
    expect(first[1]).toBeGreaterThan(mean);
  });

  it('has zero width when every difference is equal', () => {
    expect(bootstrapMeanInterval([0, 0, 0], 1)).toEqual([0, 0]);
    expect(bootstrapMeanInterval([2, 2], 1)).toEqual([2, 2]);
    expect(bootstrapMeanInterval([], 1)).toEqual([0, 0]);
  });
});

describe('pairedComparison', () => {
  const ones = (n: number) => Array<number>(n).fill(1);
  const zeros = (n: number) => Array<number>(n).fill(0);

  it('never judges equal values: identical sides have no discordant pair and no winner', () => {
    const a = [1, 0, 1, 1, 0, 1, 1, 1];
    const result = pairedComparison({ a, b: [...a], better: 'high', binary: true, seed: 1 });
    expect(result).toMatchObject({
      test: 'exact McNemar',
      n: 8,
      aBetter: 0,
      bBetter: 0,
      ties: 8,
      p: 1,
      meanDiff: 0,
      ci: [0, 0],
      better: null,
      seedsNeeded: null,
    });
  });

  it('finds the side that is done on 200 seeds where the other is not', () => {
    const result = pairedComparison({ a: zeros(200), b: ones(200), better: 'high', binary: true, seed: 1 });
    expect(result.better).toBe('b');
    expect(result.bBetter).toBe(200);
    expect(result.p).toBeLessThan(1e-50);
    expect(result.meanDiff).toBe(-1);
    expect(result.ci).toEqual([-1, -1]);
  });

  it('says no detectable difference on five seeds all one way (p = 0.0625) and how many would do', () => {
    const result = pairedComparison({ a: ones(5), b: zeros(5), better: 'high', binary: true, seed: 1 });
    expect(result.p).toBe(0.0625);
    expect(result.better).toBeNull();
    // Connor's formula says 4 (ψ = δ = 1), but the exact test needs six differing seeds.
    expect(result.seedsNeeded).toBe(6);
  });

  it('reads lower as better for cost, and counts ties out of the sign test', () => {
    const a = [0.01, 0.02, 0.01, 0.03, 0.01, 0.02, 0.02, 0.05];
    const b = [0.02, 0.03, 0.02, 0.04, 0.02, 0.03, 0.02, 0.06];
    const result = pairedComparison({ a, b, better: 'low', seed: 3 });
    expect(result).toMatchObject({ test: 'exact sign test', aBetter: 7, bBetter: 0, ties: 1 });
    expect(result.p).toBe(2 / 128);
    expect(result.better).toBe('a');
    expect(result.meanDiff).toBeCloseTo(-0.00875, 12);
    expect(result.ci[1]).toBeLessThan(0);
  });

  it('refuses sides of different lengths and non-binary done values', () => {
    expect(() => pairedComparison({ a: [1], b: [], better: 'high', seed: 1 })).toThrow(/1 values on side A/);
    expect(() => pairedComparison({ a: [2], b: [1], better: 'high', binary: true, seed: 1 })).toThrow(
      /0 or 1/,
    );
  });
});
