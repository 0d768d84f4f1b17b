import { describe, expect, it } from 'vitest';
import type { SweepRow, SweepRunMetrics } from '@/lib/protocol';
import { sweepCounterparts } from './sweep-counterparts';

const row = (config: string, scenario = 's', fault_plan = 'f', vendor = 'v') =>
  ({
    key: `${config}|${scenario}|${fault_plan}|${vendor}`,
    config,
    config_label: `label ${config}`,
    scenario,
    fault_plan,
    vendor,
  }) as SweepRow;
const run = (key: string, seed: number, run_id: string) => ({ key, seed, run_id }) as SweepRunMetrics;

describe('sweepCounterparts', () => {
  it('pairs a run with the same seed in the other configurations of the same scenario, fault plan and vendor', () => {
    const rows = [row('on'), row('off'), row('off', 'other-scenario'), row('slow', 's', 'other-faults')];
    const runs = [
      run(rows[0]!.key, 1, 'on-1'),
      run(rows[0]!.key, 2, 'on-2'),
      run(rows[1]!.key, 1, 'off-1'),
      run(rows[1]!.key, 2, 'off-2'),
      run(rows[2]!.key, 1, 'other-1'),
      run(rows[3]!.key, 1, 'slow-1'),
    ];
    expect(sweepCounterparts({ row: rows[0]!, rows, runs, seed: 2 })).toEqual([
      { runId: 'off-2', configLabel: 'label off' },
    ]);
    expect(sweepCounterparts({ row: rows[1]!, rows, runs, seed: 1 })).toEqual([
      { runId: 'on-1', configLabel: 'label on' },
    ]);
    expect(sweepCounterparts({ row: rows[0]!, rows, runs, seed: 3 })).toEqual([]);
  });
});
