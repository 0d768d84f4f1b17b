import { describe, expect, it } from 'vitest';
import type { SweepPairedComparison, SweepRunMetrics } from '@/lib/protocol';
import { sweepPairOfRuns } from './sweep-pair';

const run = (job: number, run_id: string, key: string, seed: number): SweepRunMetrics => ({
  job,
  run_id,
  key,
  seed,
  complete: true,
  reason: 'end_turn',
  verdict: 'done',
  duration_ms: 1,
  input_tokens: 1,
  output_tokens: 1,
  usd: 0,
  attempts: 1,
  failed_attempts: 0,
  wasted_tokens: 0,
  wasted_usd: 0,
  errors_seen: 0,
});

const COMPARISON = { a: 'A|x', b: 'B|x', a_label: 'A', b_label: 'B', context: 'x', seeds: 2, metrics: [] };
const OTHER: SweepPairedComparison = { ...COMPARISON, a: 'A|y', b: 'B|y' };
// Seed 1 runs twice in each row: the sweep pairs the first with the first, the second with the second.
const RUNS = [
  run(0, 'a1', 'A|x', 1),
  run(1, 'a1b', 'A|x', 1),
  run(2, 'a2', 'A|x', 2),
  run(3, 'b1', 'B|x', 1),
  run(4, 'b1b', 'B|x', 1),
  run(5, 'b2', 'B|x', 2),
  run(6, 'c1', 'A|y', 1),
];

const find = (a: string, b: string, comparisons: SweepPairedComparison[] | null = [OTHER, COMPARISON]) =>
  sweepPairOfRuns({ comparisons, runs: RUNS, a, b });

describe('the sweep pair two runs are', () => {
  it('finds the comparison of their rows when they are one of its seed pairs, either way round', () => {
    expect(find('a2', 'b2')).toEqual({ found: true, comparison: COMPARISON, seed: 2, flipped: false });
    expect(find('b1b', 'a1b')).toEqual({ found: true, comparison: COMPARISON, seed: 1, flipped: true });
  });

  it('says why two runs are not a seed pair of the sweep, never picking a result for them', () => {
    expect(find('a1', 'b2')).toMatchObject({
      found: false,
      why: expect.stringContaining('different seeds (1 and 2)'),
    });
    expect(find('a1', 'b1b')).toMatchObject({
      found: false,
      why: expect.stringContaining('not the pair the sweep matched'),
    });
    expect(find('a1', 'a1b')).toMatchObject({ found: false, why: expect.stringContaining('same row') });
    expect(find('a1', 'c1', [COMPARISON])).toMatchObject({
      found: false,
      why: expect.stringContaining('did not compare'),
    });
    expect(find('a1', 'zz')).toMatchObject({ found: false, why: "run zz is not one of this sweep's runs" });
    expect(find('a1', 'b1', null)).toMatchObject({
      found: false,
      why: expect.stringContaining('has not ended'),
    });
  });
});
