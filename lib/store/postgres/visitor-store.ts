import type pg from 'pg';
import type { LessonPlay, OwnedKind, VisitorStore } from '../visitor-store';

// A prompt set's id is `name@version`: its table's key is the pair.
const PROMPT_SET_ID = "name || '@' || version";

const CLAIM: Record<OwnedKind, string> = {
  run: 'UPDATE runs SET visitor = $1 WHERE id = $2',
  sweep: 'UPDATE sweeps SET visitor = $1 WHERE id = $2',
  cassette: 'UPDATE cassettes SET visitor = $1 WHERE id = $2',
  prompt_set: `UPDATE prompt_sets SET visitor = $1 WHERE ${PROMPT_SET_ID} = $2`,
  task: 'UPDATE uploaded_tasks SET visitor = $1 WHERE id = $2',
};
const OWNER: Record<OwnedKind, string> = {
  // A sweep's run carries its sweep's id; the sweep's runner does not know about visitors.
  run: `SELECT COALESCE(runs.visitor, sweeps.visitor) AS visitor FROM runs
        LEFT JOIN sweeps ON sweeps.id = runs.sweep_id WHERE runs.id = $1`,
  sweep: 'SELECT visitor FROM sweeps WHERE id = $1',
  cassette: 'SELECT visitor FROM cassettes WHERE id = $1',
  prompt_set: `SELECT visitor FROM prompt_sets WHERE ${PROMPT_SET_ID} = $1`,
  task: 'SELECT visitor FROM uploaded_tasks WHERE id = $1',
};
const OWNED: Record<OwnedKind, string> = {
  run: 'SELECT id FROM runs WHERE visitor = $1',
  sweep: 'SELECT id FROM sweeps WHERE visitor = $1',
  cassette: 'SELECT id FROM cassettes WHERE visitor = $1',
  prompt_set: `SELECT ${PROMPT_SET_ID} AS id FROM prompt_sets WHERE visitor = $1`,
  task: 'SELECT id FROM uploaded_tasks WHERE visitor = $1',
};

/** Room mode's ownership records on Postgres, as lib/store/sqlite-visitor-store.ts. */
export function createPostgresVisitorStore({
  pool,
  release,
}: {
  pool: pg.Pool;
  release: () => Promise<void>;
}): VisitorStore {
  return {
    async claim(kind: OwnedKind, id: string, visitor: string): Promise<void> {
      if ((await pool.query(CLAIM[kind], [visitor, id])).rowCount !== 1)
        throw new Error(`no ${kind} "${id}" in the store to record its visitor on`);
    },
    async visitorOf(kind: OwnedKind, id: string): Promise<string | null | undefined> {
      const row = (await pool.query<{ visitor: string | null }>(OWNER[kind], [id])).rows[0];
      return row === undefined ? undefined : row.visitor;
    },
    async idsOf(kind: OwnedKind, visitor: string): Promise<Set<string>> {
      return new Set((await pool.query<{ id: string }>(OWNED[kind], [visitor])).rows.map((row) => row.id));
    },
    async runIdsOf(visitor: string, limit: number): Promise<string[]> {
      const rows = (
        await pool.query<{ id: string }>(
          'SELECT id FROM runs WHERE visitor = $1 AND sweep_id IS NULL ORDER BY created_at DESC, rowid DESC LIMIT $2',
          [visitor, limit],
        )
      ).rows;
      return rows.map((row) => row.id);
    },
    async runningRunsOf(visitor: string): Promise<number> {
      return (
        await pool.query<{ n: number }>(
          "SELECT count(*) AS n FROM runs WHERE visitor = $1 AND status = 'running'",
          [visitor],
        )
      ).rows[0]!.n;
    },
    async runningRuns(): Promise<{ id: string; visitor: string }[]> {
      return (
        await pool.query<{ id: string; visitor: string }>(
          "SELECT id, visitor FROM runs WHERE visitor IS NOT NULL AND status = 'running' ORDER BY created_at, rowid",
        )
      ).rows;
    },
    async addShare(runId: string, tokenHash: string, at: number): Promise<void> {
      await pool.query('INSERT INTO run_shares (token_hash, run_id, created_at) VALUES ($1, $2, $3)', [
        tokenHash,
        runId,
        at,
      ]);
    },
    async runOfShare(tokenHash: string): Promise<string | undefined> {
      return (
        await pool.query<{ run_id: string }>(
          'SELECT run_id FROM run_shares WHERE token_hash = $1 AND revoked_at IS NULL',
          [tokenHash],
        )
      ).rows[0]?.run_id;
    },
    async revokeShares(runId: string, at: number): Promise<number> {
      return (
        (
          await pool.query('UPDATE run_shares SET revoked_at = $1 WHERE run_id = $2 AND revoked_at IS NULL', [
            at,
            runId,
          ])
        ).rowCount ?? 0
      );
    },
    async addLessonPlay({ slug, on, off, visitor, createdAt }: LessonPlay): Promise<void> {
      await pool.query(
        'INSERT INTO lesson_plays (slug, on_run, off_run, visitor, created_at) VALUES ($1, $2, $3, $4, $5)',
        [slug, on, off, visitor, createdAt],
      );
    },
    async lessonPlays(): Promise<LessonPlay[]> {
      const rows = (
        await pool.query<{
          slug: string;
          on_run: string;
          off_run: string;
          visitor: string | null;
          created_at: number;
        }>('SELECT slug, on_run, off_run, visitor, created_at FROM lesson_plays ORDER BY created_at, rowid')
      ).rows;
      return rows.map((row) => ({
        slug: row.slug,
        on: row.on_run,
        off: row.off_run,
        visitor: row.visitor,
        createdAt: row.created_at,
      }));
    },
    close: release,
  };
}
