import { describe, expect, it } from 'vitest';
import type { ModuleMatrixRows } from '@/lib/mechanisms/module';
import { MATRIX_PRESETS, MATRIX_VENDORS } from './cells';
import { MODULE_GUARD_MS, moduleCells, runModuleCell } from './module-cells';

/** A fixture row set: one cell per vendor, on CodeSmith, that promises how the run ends. */
const fixture = (promised: string): ModuleMatrixRows => ({
  title: 'fixture rows',
  cells: ({ vendors, presets }) => [
    ...vendors.slice(0, 1).map((vendor) => ({
      label: `${vendor} × ${presets[0]}`,
      config: { provider: { vendor }, preset: presets[0]!, seed: 2 },
      promise: `the run ends ${promised}`,
      check: (events: readonly { event: string; reason?: string }[]) => {
        const end = events.at(-1);
        return end?.reason === promised ? [] : [`ended ${end?.reason}, promised ${promised}`];
      },
    })),
    { label: 'a gap', notApplicable: 'the vendor guarantees against it' },
  ],
});

describe("a module's rows in the fault matrix", () => {
  it('are its cells over every matrix vendor and preset', () => {
    let seen: { vendors: readonly string[]; presets: readonly string[] } | undefined;
    const [rows] = moduleCells([
      {
        title: 'columns',
        cells: (columns) => {
          seen = columns;
          return [];
        },
      },
    ]);
    expect(rows).toEqual({ title: 'columns', cells: [] });
    expect(seen).toEqual({ vendors: MATRIX_VENDORS, presets: MATRIX_PRESETS });
  });

  it('runs a cell through the real runtime and holds it to its promise', async () => {
    const [kept] = moduleCells([fixture('end_turn')])[0]!.cells;
    expect(await runModuleCell(kept as never, { guardMs: MODULE_GUARD_MS })).toMatchObject({ failures: [] });
    const [broken, gap] = moduleCells([fixture('refusal')])[0]!.cells;
    expect((await runModuleCell(broken as never, { guardMs: MODULE_GUARD_MS })).failures).toEqual([
      'ended end_turn, promised refusal',
    ]);
    expect(gap).toEqual({ label: 'a gap', notApplicable: 'the vendor guarantees against it' });
  });
});

describe('every module row set in the fault matrix (virtual clock)', () => {
  const cells = moduleCells().flatMap((rows) =>
    rows.cells.flatMap((cell) =>
      'notApplicable' in cell ? [] : [[`${rows.title}: ${cell.label}`, cell] as const],
    ),
  );

  it.each(cells)('%s', async (_, cell) => {
    const result = await runModuleCell(cell, { guardMs: MODULE_GUARD_MS });
    expect(result.failures).toEqual([]);
  });
});
