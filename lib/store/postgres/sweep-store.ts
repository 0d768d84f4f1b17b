import type pg from 'pg';
import type { SweepRunMetrics, SweepSummary } from '@/lib/protocol';
import { isOwnerGone } from '../run-owner';
import { metricsOf, newSweepRow, sweepRecordOf, sweepUpdate, toSummary, type SweepRow } from '../sweep-rows';
import {
  INTERRUPTED_SWEEP_MESSAGE,
  type ClosedSweep,
  type CreateSweepOptions,
  type SweepRecord,
  type SweepStore,
  type UpdateSweepOptions,
} from '../sweep-store';
import type { PoolStoreOptions } from './pool';

const SWEEP_COLUMNS =
  'id, created_at, name, grid, status, total, done, elapsed_ms, runner, message, notes, spent_usd, cost_cap_usd';

/**
 * The sweep store on Postgres, as lib/store/sqlite-sweep-store.ts: each sweep records which
 * opening of the store runs it, and a sweep whose process is gone is closed (at open, and by
 * closeInterrupted) with `done` and `spent_usd` recounted from its stored runs.
 */
export function createPostgresSweepStore({ pool, owner, release }: PoolStoreOptions): SweepStore {
  return {
    async createSweep(options: CreateSweepOptions): Promise<void> {
      const r = newSweepRow(options, owner);
      await pool.query(
        `INSERT INTO sweeps (id, created_at, name, grid, status, total, runner, owner, cost_cap_usd)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [r.id, r.createdAt, r.name, r.grid, r.status, r.total, r.runner, r.owner, r.costCapUsd],
      );
    },
    async updateSweep(options: UpdateSweepOptions): Promise<void> {
      const v = sweepUpdate(options);
      await pool.query(
        `UPDATE sweeps SET done = $2, elapsed_ms = $3, status = COALESCE($4, status),
           message = COALESCE($5, message), notes = COALESCE($6, notes), spent_usd = COALESCE($7, spent_usd)
         WHERE id = $1`,
        [v.id, v.done, v.elapsedMs, v.status, v.message, v.notes, v.spentUsd],
      );
    },
    async getSweep(id: string): Promise<SweepRecord | undefined> {
      const row = (await pool.query<SweepRow>(`SELECT ${SWEEP_COLUMNS} FROM sweeps WHERE id = $1`, [id]))
        .rows[0];
      if (!row) return undefined;
      return sweepRecordOf(row);
    },
    async listSweeps({ limit = 100 } = {}): Promise<SweepSummary[]> {
      const rows = (
        await pool.query<SweepRow>(
          `SELECT ${SWEEP_COLUMNS} FROM sweeps ORDER BY created_at DESC, rowid DESC LIMIT $1`,
          [limit],
        )
      ).rows;
      return rows.map(toSummary);
    },
    async readSweepMetrics(id: string): Promise<SweepRunMetrics[]> {
      const rows = (
        await pool.query<{ metrics: string }>(
          'SELECT metrics FROM sweep_runs WHERE sweep_id = $1 ORDER BY job',
          [id],
        )
      ).rows;
      return rows.map(metricsOf);
    },
    closeInterrupted: () => closeInterruptedSweeps(pool, owner),
    close: release,
  };
}

/** Closes the sweeps a gone process left running or queued (SweepStore.closeInterrupted). */
export async function closeInterruptedSweeps(pool: pg.Pool, owner: string): Promise<ClosedSweep[]> {
  const open = (
    await pool.query<{ id: string; owner: string | null; runner: string }>(
      `SELECT id, owner, runner FROM sweeps WHERE status IN ('running', 'queued')`,
    )
  ).rows;
  const closed: ClosedSweep[] = [];
  for (const row of open) {
    if (!isOwnerGone({ owner: row.owner, self: owner })) continue;
    // One statement: the status check makes a second process closing it at once change nothing.
    const done = (
      await pool.query<{ done: number }>(
        `UPDATE sweeps SET status = 'failed', message = $1,
           done = (SELECT count(*) FROM sweep_runs WHERE sweep_runs.sweep_id = sweeps.id),
           spent_usd = (SELECT COALESCE(SUM((metrics::jsonb ->> 'usd')::double precision + COALESCE((metrics::jsonb ->> 'subagent_usd')::double precision, 0) ORDER BY job), 0) FROM sweep_runs WHERE sweep_runs.sweep_id = sweeps.id)
         WHERE id = $2 AND status IN ('running', 'queued') RETURNING done`,
        [INTERRUPTED_SWEEP_MESSAGE, row.id],
      )
    ).rows[0];
    if (done) closed.push({ id: row.id, runner: row.runner as ClosedSweep['runner'], done: done.done });
  }
  return closed;
}
