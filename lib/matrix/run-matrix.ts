import { probeBaseline, type Baseline } from './baseline';
import { buildCells, MATRIX_PRESETS, MATRIX_VENDORS, type Cell, type RunnableCell } from './cells';
import { checkCell, MATRIX_RULE_ID, type CellVerdict } from './check-cell';
import { matrixConfig } from './matrix-config';
import { runGuarded } from './run-guarded';
import { buildToolCells, runToolCell, type ToolCellResult } from './tool-cells';
import { buildCacheCells, runCacheCell, type CacheCellResult } from './cache-cells';
import { findContradictions, type Contradiction } from '@/lib/run-view/explain/why-claims';

export interface CellResult {
  cell: RunnableCell;
  verdict: CellVerdict;
  wallMs: number;
  events: number;
}

export interface MatrixReport {
  cells: Cell[];
  results: CellResult[];
  /** The tool-call rows (interrupted calls, parallel calls), each vendor × preset. */
  toolResults: ToolCellResult[];
  /** The prompt-cache row: each vendor × preset's cache figures against the vendor's own usage. */
  cacheResults: CacheCellResult[];
  baselines: Baseline[];
  wallMs: number;
}

/** Wall time one run may take before it counts as a hang (virtual clock: runs take ~0.1 s). */
export const DEFAULT_GUARD_MS = 15_000;

/** Probes every column, lists every cell, then runs each runnable cell once. */
export async function prepareMatrix(
  options: { guardMs?: number } = {},
): Promise<{ cells: Cell[]; baselines: Baseline[] }> {
  const guardMs = options.guardMs ?? DEFAULT_GUARD_MS;
  const baselines: Baseline[] = [];
  for (const vendor of MATRIX_VENDORS) {
    for (const preset of MATRIX_PRESETS) {
      const baseline = await probeBaseline({ vendor, preset, guardMs });
      if (!baseline.completed)
        throw new Error(
          `the unfaulted ${vendor} × ${preset} run did not complete: the matrix has no footing`,
        );
      baselines.push(baseline);
    }
  }
  return { cells: buildCells({ baselines }), baselines };
}

/** Runs one cell: its fault on its request, through the real runtime, checked against its promise. */
export async function runCell(cell: RunnableCell, options: { guardMs?: number } = {}): Promise<CellResult> {
  const run = await runGuarded({
    guardMs: options.guardMs ?? DEFAULT_GUARD_MS,
    runId: `matrix-${cell.fault.id}-${cell.point}-${cell.vendor}-${cell.preset}`,
    config: matrixConfig({
      vendor: cell.vendor,
      preset: cell.preset,
      rule: {
        id: MATRIX_RULE_ID,
        enabled: true,
        when: { kind: 'requests', numbers: [cell.requestNo] },
        action: cell.action,
      },
    }),
  });
  return {
    cell,
    verdict: withWhyLines(checkCell(cell, run), findContradictions(run.events)),
    wallMs: run.wallMs,
    events: run.events.length,
  };
}

/** A cell also fails when a why line its run view would show is contradicted by its own later events. */
function withWhyLines(verdict: CellVerdict, contradictions: readonly Contradiction[]): CellVerdict {
  if (contradictions.length === 0) return verdict;
  const failures = contradictions.map((c) => `why line of ${c.event} #${c.seq} says ${c.claim}`);
  return { ...verdict, passed: false, failures: [...verdict.failures, ...failures] };
}

/**
 * The whole matrix. Cells run a few at a time in one process: runs on the virtual clock are
 * CPU-bound, but a few waits are wall time (the SDK's own backoff after a connection error,
 * the check sandbox's child processes), and those overlap. Results come back in cell order.
 */
export async function runMatrix(
  options: { guardMs?: number; concurrency?: number; onResult?: (result: CellResult) => void } = {},
): Promise<MatrixReport> {
  const started = performance.now();
  const { cells, baselines } = await prepareMatrix(options);
  const runnable = cells.filter((c): c is RunnableCell => c.status === 'runnable');
  const results: CellResult[] = new Array(runnable.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < runnable.length) {
      const index = next++;
      const result = await runCell(runnable[index]!, options);
      results[index] = result;
      options.onResult?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  const toolResults: ToolCellResult[] = [];
  for (const cell of buildToolCells())
    toolResults.push(await runToolCell(cell, { guardMs: 4 * (options.guardMs ?? DEFAULT_GUARD_MS) }));
  const cacheResults: CacheCellResult[] = [];
  for (const cell of buildCacheCells()) cacheResults.push(await runCacheCell(cell));
  return { cells, results, toolResults, cacheResults, baselines, wallMs: performance.now() - started };
}
