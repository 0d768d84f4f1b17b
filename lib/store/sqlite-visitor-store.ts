import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE_NAME } from './sqlite-run-store';
import { migrate } from './sqlite-schema';
import type { LessonPlay, OwnedKind, VisitorStore } from './visitor-store';

/** Ownership records on the run store's SQLite file (its own connection, as the prompt sets). */
export function createSqliteVisitorStore({ dir }: { dir: string }): VisitorStore {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  // A prompt set's id is `name@version`: its table's key is the pair.
  const PROMPT_SET_ID = "name || '@' || version";
  const claims: Record<OwnedKind, Database.Statement<[string, string]>> = {
    run: db.prepare('UPDATE runs SET visitor = ? WHERE id = ?'),
    sweep: db.prepare('UPDATE sweeps SET visitor = ? WHERE id = ?'),
    cassette: db.prepare('UPDATE cassettes SET visitor = ? WHERE id = ?'),
    prompt_set: db.prepare(`UPDATE prompt_sets SET visitor = ? WHERE ${PROMPT_SET_ID} = ?`),
    task: db.prepare('UPDATE uploaded_tasks SET visitor = ? WHERE id = ?'),
  };
  const owners: Record<OwnedKind, Database.Statement<[string], { visitor: string | null }>> = {
    // A sweep's run carries its sweep's id; the sweep's runner does not know about visitors.
    run: db.prepare(
      `SELECT COALESCE(runs.visitor, sweeps.visitor) AS visitor FROM runs
       LEFT JOIN sweeps ON sweeps.id = runs.sweep_id WHERE runs.id = ?`,
    ),
    sweep: db.prepare('SELECT visitor FROM sweeps WHERE id = ?'),
    cassette: db.prepare('SELECT visitor FROM cassettes WHERE id = ?'),
    prompt_set: db.prepare(`SELECT visitor FROM prompt_sets WHERE ${PROMPT_SET_ID} = ?`),
    task: db.prepare('SELECT visitor FROM uploaded_tasks WHERE id = ?'),
  };
  const owned: Record<OwnedKind, Database.Statement<[string], { id: string }>> = {
    run: db.prepare('SELECT id FROM runs WHERE visitor = ?'),
    sweep: db.prepare('SELECT id FROM sweeps WHERE visitor = ?'),
    cassette: db.prepare('SELECT id FROM cassettes WHERE visitor = ?'),
    prompt_set: db.prepare(`SELECT ${PROMPT_SET_ID} AS id FROM prompt_sets WHERE visitor = ?`),
    task: db.prepare('SELECT id FROM uploaded_tasks WHERE visitor = ?'),
  };
  const runIds = db.prepare<[string, number], { id: string }>(
    'SELECT id FROM runs WHERE visitor = ? AND sweep_id IS NULL ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const running = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM runs WHERE visitor = ? AND status = 'running'",
  );
  const runningAll = db.prepare<[], { id: string; visitor: string }>(
    "SELECT id, visitor FROM runs WHERE visitor IS NOT NULL AND status = 'running' ORDER BY created_at, rowid",
  );
  const insertShare = db.prepare<[string, string, number]>(
    'INSERT INTO run_shares (token_hash, run_id, created_at) VALUES (?, ?, ?)',
  );
  const shareRun = db.prepare<[string], { run_id: string }>(
    'SELECT run_id FROM run_shares WHERE token_hash = ? AND revoked_at IS NULL',
  );
  const revoke = db.prepare<[number, string]>(
    'UPDATE run_shares SET revoked_at = ? WHERE run_id = ? AND revoked_at IS NULL',
  );
  const insertPlay = db.prepare<[string, string, string, string | null, number]>(
    'INSERT INTO lesson_plays (slug, on_run, off_run, visitor, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const plays = db.prepare<
    [],
    { slug: string; on_run: string; off_run: string; visitor: string | null; created_at: number }
  >('SELECT slug, on_run, off_run, visitor, created_at FROM lesson_plays ORDER BY created_at, rowid');

  return {
    async claim(kind, id, visitor) {
      if (claims[kind].run(visitor, id).changes !== 1)
        throw new Error(`no ${kind} "${id}" in the store to record its visitor on`);
    },
    async visitorOf(kind, id) {
      const row = owners[kind].get(id);
      return row === undefined ? undefined : row.visitor;
    },
    async idsOf(kind, visitor) {
      return new Set(owned[kind].all(visitor).map((row) => row.id));
    },
    async runIdsOf(visitor, limit) {
      return runIds.all(visitor, limit).map((row) => row.id);
    },
    async runningRunsOf(visitor) {
      return running.get(visitor)!.n;
    },
    async runningRuns() {
      return runningAll.all();
    },
    async addShare(runId, tokenHash, at) {
      insertShare.run(tokenHash, runId, at);
    },
    async runOfShare(tokenHash) {
      return shareRun.get(tokenHash)?.run_id;
    },
    async revokeShares(runId, at) {
      return revoke.run(at, runId).changes;
    },
    async addLessonPlay({ slug, on, off, visitor, createdAt }: LessonPlay) {
      insertPlay.run(slug, on, off, visitor, createdAt);
    },
    async lessonPlays() {
      return plays.all().map((row) => ({
        slug: row.slug,
        on: row.on_run,
        off: row.off_run,
        visitor: row.visitor,
        createdAt: row.created_at,
      }));
    },
    async close() {
      db.close();
    },
  };
}
