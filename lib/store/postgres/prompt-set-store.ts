import type pg from 'pg';
import type { PromptSet, SavePromptSetBody } from '@/lib/protocol';
import type { PromptSetStore } from '../prompt-set-store';
import { toPromptSet, type PromptSetRow } from '../sqlite-prompt-set-store';
import { inTransaction } from './pool';

const COLUMNS = 'name, version, created_at, system, task, tool_descriptions';

/** Prompt sets on Postgres, as lib/store/sqlite-prompt-set-store.ts. */
export function createPostgresPromptSetStore({
  pool,
  now = Date.now,
  release,
}: {
  pool: pg.Pool;
  now?: () => number;
  release: () => Promise<void>;
}): PromptSetStore {
  return {
    // The next version read and written in one transaction, under a lock on the name (SQLite's
    // BEGIN IMMEDIATE): two saves, in any processes, never share a number.
    savePromptSet: (body: SavePromptSetBody): Promise<PromptSet> =>
      inTransaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('prompt_sets:' || $1))", [body.name]);
        const next = (
          await client.query<{ next: number }>(
            'SELECT COALESCE(MAX(version), 0) + 1 AS next FROM prompt_sets WHERE name = $1',
            [body.name],
          )
        ).rows[0]!.next;
        const row: PromptSetRow = {
          name: body.name,
          version: next,
          created_at: now(),
          system: body.system,
          task: body.task,
          tool_descriptions: JSON.stringify(body.toolDescriptions),
        };
        await client.query(`INSERT INTO prompt_sets (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
          row.name,
          row.version,
          row.created_at,
          row.system,
          row.task,
          row.tool_descriptions,
        ]);
        return toPromptSet(row);
      }),
    async getPromptSet(name: string, version: number): Promise<PromptSet | undefined> {
      const row = (
        await pool.query<PromptSetRow>(
          `SELECT ${COLUMNS} FROM prompt_sets WHERE name = $1 AND version = $2`,
          [name, version],
        )
      ).rows[0];
      return row ? toPromptSet(row) : undefined;
    },
    async listPromptSets(): Promise<PromptSet[]> {
      // Names in byte order, as SQLite's BINARY collation sorts them, whatever the database's locale.
      const rows = (
        await pool.query<PromptSetRow>(
          `SELECT ${COLUMNS} FROM prompt_sets ORDER BY created_at DESC, name COLLATE "C", version DESC`,
        )
      ).rows;
      return rows.map(toPromptSet);
    },
    close: release,
  };
}
