import { describe, expect, it } from 'vitest';
import { INJECTION_POINTS } from './injection-points';
import { MATRIX_FAULTS } from './fault-kinds';
import { MATRIX_PRESETS, MATRIX_VENDORS, type RunnableCell } from './cells';
import { DEFAULT_GUARD_MS, prepareMatrix, runCell } from './run-matrix';
import { REPAIR_GUARD_MS, repairCells, runRepairCell } from './repair-cells';
import { buildToolCells, runToolCell, TOOL_ROWS } from './tool-cells';

/**
 * The fault matrix, every runnable cell asserted: each runs the real engine through the
 * real SDKs over a simulated vendor on the virtual clock, and must keep the promise its
 * effective recovery config makes, end exactly once with terminate, keep seq contiguous
 * and end within its wall-time guard.
 */
const { cells } = await prepareMatrix();
const runnable = cells.filter((c): c is RunnableCell => c.status === 'runnable');
const toolCells = buildToolCells();

describe('the cell list', () => {
  it('lists every fault kind × point × vendor × preset exactly once, each not run with its reason', () => {
    expect(cells).toHaveLength(
      MATRIX_FAULTS.length * INJECTION_POINTS.length * MATRIX_VENDORS.length * MATRIX_PRESETS.length,
    );
    const keys = new Set(cells.map((c) => `${c.fault.id}|${c.point}|${c.vendor}|${c.preset}`));
    expect(keys.size).toBe(cells.length);
    for (const cell of cells) {
      if (cell.status !== 'runnable') expect(cell.why.length).toBeGreaterThan(10);
    }
  });

  it('runs at least 80 cells, every fault kind and every point among them, on every vendor', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(80);
    expect(new Set(runnable.map((c) => c.fault.id))).toEqual(new Set(MATRIX_FAULTS.map((f) => f.id)));
    expect(new Set(runnable.map((c) => c.point))).toEqual(new Set(INJECTION_POINTS));
    expect(new Set(runnable.map((c) => c.vendor))).toEqual(new Set(MATRIX_VENDORS));
  });

  it('waits only on promises this build cannot end (a terminate reason the protocol lacks)', () => {
    for (const cell of cells) {
      if (cell.status === 'pending') expect(cell.promise?.ending).not.toBe('completes');
    }
  });
});

describe.concurrent('fault matrix (virtual clock)', () => {
  it.each(runnable.map((cell) => [name(cell), cell] as const))('%s', async (_, cell) => {
    const result = await runCell(cell);
    // The failures include any why line the run view would show that the run's own later events contradict.
    expect(result.verdict.failures, cell.promise.rule).toEqual([]);
    expect(result.verdict.observed).toEqual({ ending: cell.promise.ending, path: cell.promise.path });
  });
});

// One at a time: the parallel rows run the scenario's check in a child process.
describe('tool-call rows (virtual clock)', () => {
  it('lists interrupted and parallel calls on every vendor × preset', () => {
    expect(toolCells).toHaveLength(TOOL_ROWS.length * MATRIX_VENDORS.length * MATRIX_PRESETS.length);
    // Each promise is met on some preset and its counterfactual on another.
    expect(new Set(toolCells.map((c) => c.promise.path))).toEqual(
      new Set(['synthetic_results', 'sent_unanswered', 'at_once', 'one_by_one']),
    );
  });
  it.each(
    toolCells.map(
      (cell) =>
        [
          `${cell.row} on ${cell.vendor} × ${cell.preset} → ${cell.promise.ending} (${cell.promise.path})`,
          cell,
        ] as const,
    ),
  )('%s', async (_, cell) => {
    const result = await runToolCell(cell, { guardMs: 4 * DEFAULT_GUARD_MS });
    expect(result.failures, cell.promise.rule).toEqual([]);
    expect(result.observed).toEqual({ ending: cell.promise.ending, path: cell.promise.path });
  });
});

function name(cell: RunnableCell): string {
  return `${cell.fault.id} ${cell.point} on ${cell.vendor} × ${cell.preset} → ${cell.promise.ending} (${cell.promise.path})`;
}

// One at a time: each run is the whole scenario, with the check sandbox's child processes.
describe('the argument repair ladder in the matrix (damaged-args model, virtual clock)', () => {
  const repair = repairCells();

  it('covers both vendors, every preset, and each rung switched off alone', () => {
    expect(new Set(repair.map((c) => c.vendor))).toEqual(new Set(MATRIX_VENDORS));
    expect(
      repair.filter((c) => c.promise.json.length > 0 && c.promise.coerce.length === 0).length,
    ).toBeGreaterThanOrEqual(MATRIX_VENDORS.length);
    expect(
      repair.filter((c) => c.promise.json.length === 0 && c.promise.coerce.length > 0).length,
    ).toBeGreaterThanOrEqual(MATRIX_VENDORS.length);
  });

  it.each(
    repair.map(
      (cell) =>
        [
          `${cell.vendor} × ${cell.setting.label}: ${cell.promise.json.length + cell.promise.coerce.length} repaired, ${cell.promise.reasked} re-asked`,
          cell,
        ] as const,
    ),
  )('%s', async (_, cell) => {
    const result = await runRepairCell(cell, { guardMs: REPAIR_GUARD_MS });
    expect(result.failures).toEqual([]);
  });
});
