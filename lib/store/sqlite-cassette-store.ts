import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CassetteSchema, type Cassette } from '@/lib/protocol';
import type { CassetteSummary } from '@/lib/protocol/http';
import type { CassetteStore } from './cassette-store';
import { DB_FILE_NAME } from './sqlite-run-store';
import { migrate } from './sqlite-schema';

/** A cassettes row (the Postgres store reads the same). */
export interface CassetteRow {
  id: string;
  name: string;
  created_at: number;
  source_kind: string;
  vendor: string;
  model: string;
  exchanges: number;
  bytes: number;
  from_run: string | null;
  body: string;
}

/** What the list shows of a stored cassette, read from its own file (the row's columns are for sorting and size). */
export function summaryOf(row: CassetteRow, cassette: Cassette): CassetteSummary {
  return {
    id: row.id,
    name: row.name,
    created_at: new Date(row.created_at).toISOString(),
    source: cassette.source,
    exchanges: row.exchanges,
    bytes: row.bytes,
    ...(row.from_run ? { from_run: row.from_run } : {}),
    shipped: false,
    truncated: cassette.truncated ?? false,
    version: cassette.version,
    ...(cassette.config ? { config: cassette.config } : {}),
  };
}

/** Cassettes on the run store's SQLite file (its own connection, as the prompt sets). */
export function createSqliteCassetteStore({
  dir,
  now = Date.now,
}: {
  dir: string;
  now?: () => number;
}): CassetteStore {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  const insert = db.prepare(
    `INSERT INTO cassettes (id, name, created_at, source_kind, vendor, model, exchanges, bytes, from_run, body)
     VALUES (@id, @name, @created_at, @source_kind, @vendor, @model, @exchanges, @bytes, @from_run, @body)`,
  );
  const selectOne = db.prepare<[string], CassetteRow>('SELECT * FROM cassettes WHERE id = ?');
  const selectAll = db.prepare<[], CassetteRow>('SELECT * FROM cassettes ORDER BY created_at DESC, id');
  const parse = (row: CassetteRow): Cassette => CassetteSchema.parse(JSON.parse(row.body));

  return {
    async saveCassette({ name, cassette, fromRun }) {
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
      insert.run(row);
      return summaryOf(row, cassette);
    },
    async getCassette(id) {
      const row = selectOne.get(id);
      if (!row) return undefined;
      const cassette = parse(row);
      return { summary: summaryOf(row, cassette), cassette };
    },
    listCassettes: async () => selectAll.all().map((row) => summaryOf(row, parse(row))),
    close: async () => {
      db.close();
    },
  };
}
