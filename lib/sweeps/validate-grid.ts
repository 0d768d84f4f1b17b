import type { SweepGrid } from '@/lib/protocol';
import { getScenario, listScenarios } from '@/lib/tools';

/** Beyond the schema: does this installation have every scenario the grid names? */
export function validateSweepGrid(grid: SweepGrid): string[] {
  return grid.scenarios
    .filter((id) => !getScenario(id))
    .map(
      (id) =>
        `scenarios: unknown scenario "${id}"; choose from ${listScenarios()
          .map((s) => s.id)
          .join(', ')}`,
    );
}
