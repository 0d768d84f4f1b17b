import type { SweepRow, SweepRunMetrics } from '@/lib/protocol';

/** The same seed's run in another configuration of a sweep, to compare a run with. */
export interface SweepCounterpart {
  runId: string;
  configLabel: string;
}

/**
 * For a run of one table row: the runs of the same seed, scenario, fault plan and vendor in
 * the sweep's other configurations — the pairs that differ only by configuration, so
 * /compare shows what the configuration changed.
 */
export function sweepCounterparts(options: {
  row: SweepRow;
  rows: readonly SweepRow[];
  runs: readonly SweepRunMetrics[];
  seed: number;
}): SweepCounterpart[] {
  const { row, rows, runs, seed } = options;
  const out: SweepCounterpart[] = [];
  for (const other of rows) {
    if (
      other.key === row.key ||
      other.scenario !== row.scenario ||
      other.fault_plan !== row.fault_plan ||
      other.vendor !== row.vendor ||
      other.model !== row.model ||
      other.prompt_set !== row.prompt_set
    )
      continue;
    const run = runs.find((r) => r.key === other.key && r.seed === seed);
    if (run) out.push({ runId: run.run_id, configLabel: other.config_label });
  }
  return out;
}
