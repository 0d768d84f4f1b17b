import { findContradictions } from '@/lib/run-view/explain/why-claims';
import type { ModuleMatrixCell, ModuleMatrixGap, ModuleMatrixRows } from '@/lib/mechanisms/module';
import { MODULE_MATRIX } from '@/lib/mechanisms/modules/engine';
import { MATRIX_PRESETS, MATRIX_VENDORS } from './cells';
import { runGuarded } from './run-guarded';

/**
 * The mechanism modules' rows in the fault matrix (each module's `MODULE_MATRIX` entry,
 * lib/mechanisms/modules/engine.ts): its cells over every matrix vendor × preset, each run through
 * the real runtime on the virtual clock and held to the promise the module states, and to the
 * matrix's own: no hang, a log that ends in terminate, no why line its own later events contradict.
 */

export const MODULE_GUARD_MS = 60_000;

export interface ModuleCellRows {
  title: string;
  cells: readonly (ModuleMatrixCell | ModuleMatrixGap)[];
}

/** Every module's row set with its cells. */
export function moduleCells(rows: readonly ModuleMatrixRows[] = MODULE_MATRIX): ModuleCellRows[] {
  return rows.map((set) => ({
    title: set.title,
    cells: set.cells({ vendors: MATRIX_VENDORS, presets: MATRIX_PRESETS }),
  }));
}

export interface ModuleCellResult {
  cell: ModuleMatrixCell;
  failures: string[];
  wallMs: number;
}

/** Runs one cell and says where it broke its promise (empty: kept). */
export async function runModuleCell(
  cell: ModuleMatrixCell,
  options: { guardMs: number },
): Promise<ModuleCellResult> {
  const run = await runGuarded({
    guardMs: options.guardMs,
    runId: `matrix-${cell.label}`,
    config: cell.config,
  });
  if (run.hung) return { cell, failures: ['hung: the run did not end within its guard'], wallMs: run.wallMs };
  if (run.events.at(-1)?.event !== 'terminate')
    return { cell, failures: ['the log does not end with terminate'], wallMs: run.wallMs };
  const failures = [
    ...cell.check(run.events),
    ...findContradictions(run.events).map((c) => `why line of ${c.event} #${c.seq} says ${c.claim}`),
  ];
  return { cell, failures, wallMs: run.wallMs };
}
