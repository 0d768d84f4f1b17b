import { RunConfigSchema, seedList, type RunConfig, type SweepGrid } from '@/lib/protocol';
import { withMechanismOff } from '@/lib/mechanisms/mechanisms';

/** One run of a sweep: a cell of the grid and a seed, with the config it runs. */
export interface SweepJob {
  /** Position in the job list (0-based); a run's id is `<sweep id>-<index>`. */
  index: number;
  /** The row the run belongs to: `config|scenario|faultPlan|vendor`. */
  key: string;
  configId: string;
  configLabel: string;
  scenario: string;
  faultPlan: string;
  vendor: RunConfig['provider']['vendor'];
  seed: number;
  config: RunConfig;
}

export function cellKey(parts: { configId: string; scenario: string; faultPlan: string; vendor: string }): string {
  return `${parts.configId}|${parts.scenario}|${parts.faultPlan}|${parts.vendor}`;
}

/** One row of the results table: a cell of the grid without its seeds. */
export type SweepCell = Pick<SweepJob, 'key' | 'configId' | 'configLabel' | 'scenario' | 'faultPlan' | 'vendor'>;

/** The grid's cells in table order (cheap: no run configs are built). */
export function listCells(grid: SweepGrid): SweepCell[] {
  const cells: SweepCell[] = [];
  for (const scenario of grid.scenarios) {
    for (const configuration of configurationsOf(grid)) {
      for (const faultPlan of grid.faultPlans) {
        for (const vendor of grid.vendors) {
          const parts = { configId: configuration.id, scenario, faultPlan: faultPlan.id, vendor };
          cells.push({ key: cellKey(parts), configLabel: configuration.label, ...parts });
        }
      }
    }
  }
  return cells;
}

/** The configurations as rows: each as given, then each with one mechanism off. */
function configurationsOf(grid: SweepGrid) {
  return grid.configurations.flatMap((c) => [
    { id: c.id, label: c.label ?? c.id, preset: c.preset, recovery: c.recovery },
    ...grid.mechanismsOff.map((m) => ({
      id: `${c.id}-no-${m}`,
      label: `${c.label ?? c.id} − ${m}`,
      preset: c.preset,
      recovery: withMechanismOff(c.recovery, m),
    })),
  ]);
}

/**
 * The job list of a grid, in a fixed order (scenario, configuration, mechanism off, fault
 * plan, vendor, seed): the same grid always gives the same jobs, so the same table.
 */
export function expandGrid(grid: SweepGrid): SweepJob[] {
  const seeds = seedList(grid.seeds);
  const configurations = configurationsOf(grid);
  const jobs: SweepJob[] = [];
  for (const scenario of grid.scenarios) {
    for (const configuration of configurations) {
      for (const faultPlan of grid.faultPlans) {
        for (const vendor of grid.vendors) {
          for (const seed of seeds) {
            const config = RunConfigSchema.parse({
              provider: { vendor },
              scenario,
              preset: configuration.preset,
              recovery: configuration.recovery,
              faults: faultPlan.plan,
              seed,
              clock: 'virtual',
              ...(grid.budgets ? { budgets: grid.budgets } : {}),
              ...(grid.maxOutputTokens ? { maxOutputTokens: grid.maxOutputTokens } : {}),
            });
            const parts = { configId: configuration.id, scenario, faultPlan: faultPlan.id, vendor };
            jobs.push({
              index: jobs.length,
              key: cellKey(parts),
              configId: configuration.id,
              configLabel: configuration.label,
              scenario,
              faultPlan: faultPlan.id,
              vendor,
              seed,
              config,
            });
          }
        }
      }
    }
  }
  return jobs;
}
