import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { CassetteSchema, type Cassette } from '@/lib/protocol';
import type { CassetteSummary } from '@/lib/protocol/http';
import type { CassetteStore } from '../cassette-store';
import { summaryOf, type CassetteRow } from '../sqlite-cassette-store';

const COLUMNS = 'id, name, created_at, source_kind, vendor, model, exchanges, bytes, from_run, body';

/** Cassettes on Postgres, as lib/store/sqlite-cassette-store.ts. */
export function createPostgresCassetteStore({
  pool,
  now = Date.now,
  release,
}: {
  pool: pg.Pool;
  now?: () => number;
  release: () => Promise<void>;
}): CassetteStore {
  const parse = (row: CassetteRow): Cassette => CassetteSchema.parse(JSON.parse(row.body));
  return {
    async saveCassette({ name, cassette, fromRun }): Promise<CassetteSummary> {
      const body = JSON.stringify(cassette);
      const row: CassetteRow = {
        id: randomUUID(),
        name,
        created_at: now(),
        source_kind: cassette.source.kind,
        vendor: cassette.source.vendor,
        model: cassette.source.model,
        exchanges: cassette.exchanges.length,
        bytes: Buffer.byteLength(body),
        from_run: fromRun ?? null,
        body,
      };
      await pool.query(
        `INSERT INTO cassettes (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          row.id,
          row.name,
          row.created_at,
          row.source_kind,
          row.vendor,
          row.model,
          row.exchanges,
          row.bytes,
          row.from_run,
          row.body,
        ],
      );
      return summaryOf(row, cassette);
    },
    async getCassette(id: string) {
      const row = (await pool.query<CassetteRow>(`SELECT ${COLUMNS} FROM cassettes WHERE id = $1`, [id]))
        .rows[0];
      if (!row) return undefined;
      const cassette = parse(row);
      return { summary: summaryOf(row, cassette), cassette };
    },
    async listCassettes(): Promise<CassetteSummary[]> {
      const rows = (
        await pool.query<CassetteRow>(
          `SELECT ${COLUMNS} FROM cassettes ORDER BY created_at DESC, id COLLATE "C"`,
        )
      ).rows;
      return rows.map((row) => summaryOf(row, parse(row)));
    },
    close: release,
  };
}
