import type { SweepRunMetrics, SweepSummary } from '@/lib/protocol';
import { openRunDb } from './sqlite-run-store';
import { createOwnerId, isOwnerGone } from './run-owner';
import {
  INTERRUPTED_SWEEP_MESSAGE,
  type ClosedSweep,
  type CreateSweepOptions,
  type SweepRecord,
  type SweepStore,
  type UpdateSweepOptions,
} from './sweep-store';
import { metricsOf, newSweepRow, sweepRecordOf, sweepUpdate, toSummary, type SweepRow } from './sweep-rows';

/**
 * The sweep store on the run store's SQLite file (its own connection; WAL lets both write in
 * turn). Each sweep records which opening of the store runs it; opening the store closes the
 * sweeps whose process is gone, so no list or route ever shows a dead sweep as running.
 */
export function createSqliteSweepStore({ dir }: { dir: string }): SweepStore {
  const db = openRunDb(dir);

  const owner = createOwnerId();
  const insert = db.prepare(
    `INSERT INTO sweeps (id, created_at, name, grid, status, total, runner, owner, cost_cap_usd)
     VALUES (@id, @createdAt, @name, @grid, @status, @total, @runner, @owner, @costCapUsd)`,
  );
  const update = db.prepare(
    `UPDATE sweeps SET done = @done, elapsed_ms = @elapsedMs, status = COALESCE(@status, status),
       message = COALESCE(@message, message), notes = COALESCE(@notes, notes), spent_usd = COALESCE(@spentUsd, spent_usd)
     WHERE id = @id`,
  );
  const selectOne = db.prepare<[string], SweepRow>('SELECT * FROM sweeps WHERE id = ?');
  const selectMany = db.prepare<[number], SweepRow>(
    'SELECT * FROM sweeps ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const selectMetrics = db.prepare<[string], { metrics: string }>(
    'SELECT metrics FROM sweep_runs WHERE sweep_id = ? ORDER BY job',
  );
  const selectOpen = db.prepare<[], { id: string; owner: string | null; runner: string }>(
    `SELECT id, owner, runner FROM sweeps WHERE status IN ('running', 'queued')`,
  );
  const closeOne = db.prepare<[string, string], { done: number }>(
    `UPDATE sweeps SET status = 'failed', message = ?,
       done = (SELECT count(*) FROM sweep_runs WHERE sweep_runs.sweep_id = sweeps.id),
       spent_usd = (SELECT total(json_extract(metrics, '$.usd') + coalesce(json_extract(metrics, '$.subagent_usd'), 0)) FROM sweep_runs WHERE sweep_runs.sweep_id = sweeps.id)
     WHERE id = ? AND status IN ('running', 'queued') RETURNING done`,
  );
  const closeInterrupted = (): ClosedSweep[] => {
    const closed: ClosedSweep[] = [];
    for (const row of selectOpen.all()) {
      if (!isOwnerGone({ owner: row.owner, self: owner })) continue;
      const done = closeOne.get(INTERRUPTED_SWEEP_MESSAGE, row.id);
      if (done) closed.push({ id: row.id, runner: row.runner as ClosedSweep['runner'], done: done.done });
    }
    return closed;
  };
  closeInterrupted();

  return {
    async createSweep(options: CreateSweepOptions): Promise<void> {
      insert.run(newSweepRow(options, owner));
    },
    async updateSweep(options: UpdateSweepOptions): Promise<void> {
      update.run(sweepUpdate(options));
    },
    async getSweep(id: string): Promise<SweepRecord | undefined> {
      const row = selectOne.get(id);
      if (!row) return undefined;
      return sweepRecordOf(row);
    },
    async listSweeps({ limit = 100 } = {}): Promise<SweepSummary[]> {
      return selectMany.all(limit).map(toSummary);
    },
    async readSweepMetrics(id: string): Promise<SweepRunMetrics[]> {
      return selectMetrics.all(id).map(metricsOf);
    },
    closeInterrupted: async () => closeInterrupted(),
    async close(): Promise<void> {
      db.close();
    },
  };
}
