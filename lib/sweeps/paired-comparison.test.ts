import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SweepGridSchema, type SweepGridInput, type SweepRow, type SweepRunMetrics } from '@/lib/protocol';
import { createSqliteRunStore, createSqliteSweepStore, type RunStore, type SweepStore } from '@/lib/store';
import { executeSweep } from './execute-sweep';
import { createLocalPool, type SweepJobRunner } from './local-pool';
import { formatComparisons, pairedComparisons } from './paired-comparison';

let dir: string;
let runStore: RunStore;
let sweepStore: SweepStore;
let pool: SweepJobRunner;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-paired-'));
  runStore = createSqliteRunStore({ dir });
  sweepStore = createSqliteSweepStore({ dir });
  pool = createLocalPool({ workers: 2 });
});
afterAll(async () => {
  await pool.close();
  await runStore.close();
  await sweepStore.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Two 529s in a row: CodeSmith's retries recover, naive's first error ends the run. */
const OVERLOADED = {
  id: 'overloaded-x2',
  plan: {
    rules: [
      {
        id: 'o',
        when: { kind: 'requests' as const, numbers: [2, 3] },
        action: { type: 'http_error' as const, status: 529 as const },
      },
    ],
  },
};

const grid = (configurations: SweepGridInput['configurations']): SweepGridInput => ({
  configurations,
  faultPlans: [OVERLOADED],
  vendors: ['sim-anthropic'],
  seeds: { from: 1, to: 200 },
});

describe('paired comparison of a sweep on 200 shared seeds (virtual clock, simulated vendor)', () => {
  it('finds the preset that recovers from the fault better, with an exact McNemar p-value', async () => {
    const outcome = await executeSweep({
      sweepId: 'paired-diff',
      grid: SweepGridSchema.parse(
        grid([
          { id: 'codesmith', preset: 'codesmith' },
          { id: 'naive', preset: 'naive' },
          { id: 's11', preset: 's11' },
        ]),
      ),
      runner: pool,
      runStore,
      sweepStore,
    });
    expect(outcome.status).toBe('completed');
    const comparisons = pairedComparisons({ rows: outcome.rows, metrics: outcome.metrics });
    expect(comparisons.map((c) => `${c.a_label} vs ${c.b_label}`)).toEqual([
      'codesmith vs naive',
      'codesmith vs s11',
      'naive vs s11',
    ]);
    const [comparison] = comparisons;
    expect(comparison).toMatchObject({ a_label: 'codesmith', b_label: 'naive', seeds: 200 });
    const done = comparison!.metrics.find((m) => m.metric === 'done')!;
    expect(done.test).toBe('exact McNemar');
    expect(done.better).toBe('a');
    expect(done.a_better).toBeGreaterThan(150);
    expect(done.b_better).toBe(0);
    expect(done.p).toBeLessThan(1e-40);
    expect(done.ci[0]).toBeGreaterThan(0.5);
    expect(done.line).toMatch(
      /^codesmith better on task done: \d+ of 200 seeds differ, \d+ favour codesmith; exact McNemar p < 0\.0001/,
    );
    // Naive never completes a loop under the fault: what its runs spent is not compared.
    const usd = comparison!.metrics.find((m) => m.metric === 'usd')!;
    expect(usd).toMatchObject({ n: 0, better: null });
    expect(usd.line).toContain('no seed where both loops completed');
    expect(formatComparisons([comparison!])).toMatch(/▲ codesmith +codesmith better on task done/);

    // Both recover (docs/cli.md's example): the same verdicts, so no ▲ on task done; CodeSmith's
    // runs cost less on every seed, s11's take less run time (the sign test on cost and time).
    const [done2, usd2, , time2] = comparisons[1]!.metrics;
    expect(done2).toMatchObject({ n: 200, a_better: 0, b_better: 0, better: null });
    expect(usd2).toMatchObject({ n: 200, better: 'a', test: 'exact sign test' });
    expect(usd2!.line).toMatch(/^codesmith better on \$\/run: \d+ of 200 seeds differ/);
    expect(time2).toMatchObject({ n: 200, better: 'b' });
    expect(time2!.line).toMatch(/^s11 better on run time:/);
  }, 600_000);

  it('says "no detectable difference" when both configurations are the same preset, and never ▲', async () => {
    const outcome = await executeSweep({
      sweepId: 'paired-same',
      grid: SweepGridSchema.parse(
        grid([
          { id: 'first', preset: 'codesmith' },
          { id: 'second', preset: 'codesmith' },
        ]),
      ),
      runner: pool,
      runStore,
      sweepStore,
    });
    expect(outcome.status).toBe('completed');
    const [comparison] = pairedComparisons({ rows: outcome.rows, metrics: outcome.metrics });
    expect(comparison!.seeds).toBe(200);
    expect(comparison!.metrics.map((m) => m.metric)).toEqual(['done', 'usd', 'tokens', 'duration_ms']);
    for (const m of comparison!.metrics) {
      expect(m).toMatchObject({ better: null, a_better: 0, b_better: 0, p: 1, seeds_needed: null });
      expect(m.line).toMatch(/^no detectable difference at this sample size on .+: no seed of \d+ differs$/);
    }
    expect(comparison!.metrics.find((m) => m.metric === 'done')!.n).toBe(200);
    expect(formatComparisons([comparison!])).not.toContain('▲');
  }, 600_000);
});

describe('pairedComparisons', () => {
  const row = (config: string, fault = 'none'): SweepRow => ({
    key: `${config}|fix-failing-test|${fault}|sim-anthropic`,
    config,
    config_label: config,
    scenario: 'fix-failing-test',
    fault_plan: fault,
    vendor: 'sim-anthropic',
    runs: 0,
    completed: 0,
    completion_rate: 0,
    completion_ci: [0, 1],
    verdict_rate: 0,
    verdict_ci: [0, 1],
    unchecked: 0,
    median_ms: null,
    p95_ms: null,
    mean_tokens: 0,
    mean_usd: 0,
    wasted_tokens: 0,
    wasted_usd: 0,
    errors_seen: 0,
  });
  let job = 0;
  const run = (key: string, seed: number, done: boolean, usd: number): SweepRunMetrics => ({
    job: job++,
    run_id: `r-${job}`,
    key,
    seed,
    complete: true,
    reason: 'end_turn',
    verdict: done ? 'done' : 'not_done',
    duration_ms: 1000,
    input_tokens: 10,
    output_tokens: 5,
    usd,
    attempts: 1,
    failed_attempts: 0,
    wasted_tokens: 0,
    wasted_usd: 0,
    errors_seen: 0,
  });

  it('pairs by seed only rows that differ by configuration alone, whatever order the runs came in', () => {
    const rows = [row('a'), row('b'), row('a', 'other')];
    const metrics = [
      ...[1, 2, 3, 4, 5, 6, 7].map((s) => run(rows[1]!.key, s, false, 0.02)),
      ...[7, 6, 5, 4, 3, 2, 1].map((s) => run(rows[0]!.key, s, true, 0.01)),
      run(rows[0]!.key, 99, true, 0.01), // a seed B never ran: unpaired
      run(rows[2]!.key, 1, true, 0.01), // another fault plan: never compared with B
    ];
    const first = pairedComparisons({ rows, metrics });
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      a: rows[0]!.key,
      b: rows[1]!.key,
      seeds: 7,
      context: 'fix-failing-test · none · sim-anthropic',
    });
    const done = first[0]!.metrics[0]!;
    expect(done).toMatchObject({ a_better: 7, b_better: 0, p: 2 / 128, better: 'a', mean_diff: 1 });
    const usd = first[0]!.metrics[1]!;
    expect(usd).toMatchObject({ a_better: 7, b_better: 0, better: 'a', test: 'exact sign test' });
    expect(usd.line).toContain('A − B −$0.0100 (95 % CI −$0.0100 to −$0.0100)');
    expect(pairedComparisons({ rows, metrics: [...metrics].reverse() })).toEqual(first);
  });

  it('says how many seeds would be needed when the evidence is too thin', () => {
    const rows = [row('a'), row('b')];
    const metrics = [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((s) => run(rows[0]!.key, s, s <= 3, 0.01)),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((s) => run(rows[1]!.key, s, false, 0.01)),
    ];
    const [c] = pairedComparisons({ rows, metrics });
    const done = c!.metrics[0]!;
    expect(done).toMatchObject({ a_better: 3, b_better: 0, p: 0.25, better: null });
    expect(done.seeds_needed).toBeGreaterThan(10);
    expect(done.line).toMatch(
      /^no detectable difference at this sample size on task done: 3 of 10 seeds differ \(3 favour a, 0 favour b\); exact McNemar p = 0\.25; A − B \+30\.0 pts \(95 % CI \+\d+\.\d pts to \+\d+\.\d pts\); about \d+ seeds would be needed to detect a difference this size$/,
    );
    expect(done.line).toContain(`about ${done.seeds_needed} seeds`);
  });
});
