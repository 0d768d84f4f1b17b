import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SweepGridSchema, type SweepRunMetrics, type SweepStatus, type SweepSummary } from '@/lib/protocol';
import { DB_FILE_NAME } from './sqlite-run-store';
import { createOwnerId, isOwnerGone } from './run-owner';
import { migrate } from './sqlite-schema';
import {
  INTERRUPTED_SWEEP_MESSAGE,
  type ClosedSweep,
  type CreateSweepOptions,
  type SweepRecord,
  type SweepStore,
  type UpdateSweepOptions,
} from './sweep-store';

/** A sweeps row (the Postgres store reads the same). */
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

/**
 * The sweep store on the run store's SQLite file (its own connection; WAL lets both write in
 * turn). Each sweep records which opening of the store runs it; opening the store closes the
 * sweeps whose process is gone, so no list or route ever shows a dead sweep as running.
 */
export function createSqliteSweepStore({ dir }: { dir: string }): SweepStore {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);

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
    async createSweep({
      id,
      name,
      grid,
      total,
      runner,
      createdAt = Date.now(),
      status = 'running',
    }: CreateSweepOptions): Promise<void> {
      insert.run({
        id,
        createdAt,
        name,
        grid: JSON.stringify(grid),
        status,
        total,
        runner,
        owner,
        costCapUsd: grid.costCapUsd ?? null,
      });
    },
    async updateSweep({
      id,
      done,
      elapsedMs,
      status,
      message,
      notes,
      spentUsd,
    }: UpdateSweepOptions): Promise<void> {
      update.run({
        id,
        done,
        elapsedMs,
        status: status ?? null,
        message: message ?? null,
        notes: notes && notes.length > 0 ? JSON.stringify(notes) : null,
        spentUsd: spentUsd ?? null,
      });
    },
    async getSweep(id: string): Promise<SweepRecord | undefined> {
      const row = selectOne.get(id);
      if (!row) return undefined;
      return { summary: toSummary(row), grid: SweepGridSchema.parse(JSON.parse(row.grid)) };
    },
    async listSweeps({ limit = 100 } = {}): Promise<SweepSummary[]> {
      return selectMany.all(limit).map(toSummary);
    },
    async readSweepMetrics(id: string): Promise<SweepRunMetrics[]> {
      return selectMetrics.all(id).map((row) => JSON.parse(row.metrics) as SweepRunMetrics);
    },
    closeInterrupted: async () => closeInterrupted(),
    async close(): Promise<void> {
      db.close();
    },
  };
}
