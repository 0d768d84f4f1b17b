import { describe, expect, it } from 'vitest';
import { MATRIX_VENDORS } from './cells';
import { MCP_GUARD_MS, mcpCells, runMcpCell } from './mcp-cells';

describe('MCP tool servers in the matrix (the shipped server, each transport fault, virtual clock)', () => {
  it('covers every vendor, fault and transport, with the recovery on and off', () => {
    const cells = mcpCells();
    expect(new Set(cells.map((c) => c.vendor))).toEqual(new Set(MATRIX_VENDORS));
    expect(new Set(cells.map((c) => c.fault.fault))).toEqual(
      new Set(['crash', 'hang', 'malformed', 'session_expired', 'list_changed', 'is_error']),
    );
    expect(new Set(cells.map((c) => c.fault.transport))).toEqual(new Set(['stdio', 'http']));
    expect(cells.some((c) => c.promise.steps.includes('gone→surface'))).toBe(true);
  });

  // Each cell starts real processes: the unit tests hold one vendor's cells to their promise
  // (`npm run matrix` runs every vendor's).
  const cells = mcpCells([MATRIX_VENDORS[0]!]);
  it.each(
    cells.map(
      (cell) =>
        [
          `${cell.vendor} × ${cell.fault.fault} (${cell.fault.transport}) × ${cell.setting.label}`,
          cell,
        ] as const,
    ),
  )(
    '%s',
    async (_, cell) => {
      const result = await runMcpCell(cell, { guardMs: MCP_GUARD_MS });
      expect(result.failures).toEqual([]);
    },
    MCP_GUARD_MS + 10_000,
  );
});
