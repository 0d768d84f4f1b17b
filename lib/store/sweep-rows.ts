import { SweepGridSchema, type SweepRunMetrics, type SweepStatus, type SweepSummary } from '@/lib/protocol';
import type { CreateSweepOptions, SweepRecord, UpdateSweepOptions } from './sweep-store';

/**
 * The sweeps rows as both backends write and read them (lib/store/sqlite-sweep-store.ts and
 * lib/store/postgres/sweep-store.ts).
 */

/** A sweeps row. */
export interface SweepRow {
  id: string;
  created_at: number;
  name: string;
  grid: string;
  status: string;
  total: number;
  done: number;
  elapsed_ms: number;
  runner: string;
  message: string | null;
  notes: string | null;
  spent_usd: number;
  cost_cap_usd: number | null;
}

export function toSummary(row: SweepRow): SweepSummary {
  return {
    id: row.id,
    name: row.name,
    created_at: new Date(row.created_at).toISOString(),
    status: row.status as SweepStatus,
    total: row.total,
    done: row.done,
    elapsed_ms: row.elapsed_ms,
    runner: row.runner as SweepSummary['runner'],
    ...(row.message ? { message: row.message } : {}),
    ...(row.notes ? { notes: JSON.parse(row.notes) as string[] } : {}),
    spent_usd: row.spent_usd,
    ...(row.cost_cap_usd !== null ? { cost_cap_usd: row.cost_cap_usd } : {}),
  };
}

/** A sweeps row read back with its grid. */
export function sweepRecordOf(row: SweepRow): SweepRecord {
  return { summary: toSummary(row), grid: SweepGridSchema.parse(JSON.parse(row.grid)) };
}

/** A sweep_runs row's metrics. */
export function metricsOf(row: { metrics: string }): SweepRunMetrics {
  return JSON.parse(row.metrics) as SweepRunMetrics;
}

/** The values a new sweep's row is inserted with. */
export function newSweepRow(
  { id, name, grid, total, runner, createdAt = Date.now(), status = 'running' }: CreateSweepOptions,
  owner: string,
) {
  return {
    id,
    createdAt,
    name,
    grid: JSON.stringify(grid),
    status,
    total,
    runner,
    owner,
    costCapUsd: grid.costCapUsd ?? null,
  };
}

/** The values of a progress update (NULL: the column is kept as it is). */
export function sweepUpdate({ id, done, elapsedMs, status, message, notes, spentUsd }: UpdateSweepOptions) {
  return {
    id,
    done,
    elapsedMs,
    status: status ?? null,
    message: message ?? null,
    notes: notes && notes.length > 0 ? JSON.stringify(notes) : null,
    spentUsd: spentUsd ?? null,
  };
}
