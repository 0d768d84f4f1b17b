import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '@/lib/testing/postgres-cluster';
import { closePostgresStores, getPostgresStores, postgresStoresWhenOpen } from '../get-postgres-stores';
import { getStore, getVisitorStore } from '../get-store';
import { SCHEMA_VERSION } from '../migrations';
import { sampleConfig } from '../sample-run.testkit';
import { migrate } from '../sqlite-schema';
import { openPostgresStores } from './index';
import { createStorePool } from './pool';
import { migratePostgres, postgresSchemaVersion } from './schema';

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

/** A column as both backends can say it: its type's kind and whether it may be NULL. */
type Columns = Record<string, Record<string, string>>;

/** SQLite's type affinity of a declared type (https://sqlite.org/datatype3.html, 3.1). */
function kindOf(declared: string): string {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (t.includes('CHAR') || t.includes('TEXT')) return 'text';
  if (t.includes('REAL') || t.includes('DOUB') || t.includes('FLOA')) return 'real';
  return `other:${t}`;
}

function sqliteColumns(): Columns {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-schema-pair-'));
  const db = new Database(path.join(dir, 'schema.db'));
  try {
    migrate(db);
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name);
    return Object.fromEntries(
      tables.map((table) => [
        table,
        Object.fromEntries(
          db
            .prepare<[], { name: string; type: string; notnull: number; pk: number }>(
              `PRAGMA table_info(${table})`,
            )
            .all()
            // SQLite lets a non-integer primary key be NULL; Postgres never does: both refuse it here.
            .map((c) => [c.name, `${kindOf(c.type)}${c.notnull || c.pk ? ' not null' : ''}`]),
        ),
      ]),
    );
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresColumns(url: string): Promise<Columns> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (
      await client.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
        `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
         WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
      )
    ).rows;
    const columns: Columns = {};
    for (const row of rows) {
      // The migration count: SQLite keeps it in PRAGMA user_version, outside any table.
      if (row.table_name === 'loop_lab_schema') continue;
      // SQLite's implicit rowid, declared in Postgres for the queries that order by it.
      if (row.column_name === 'rowid') continue;
      (columns[row.table_name] ??= {})[row.column_name] =
        `${kindOf(row.data_type)}${row.is_nullable === 'NO' ? ' not null' : ''}`;
    }
    return columns;
  } finally {
    await client.end();
  }
}

describe('the store migrations on Postgres', () => {
  it('end with the same tables and columns as on SQLite (each column of the same kind and nullability)', async () => {
    const url = await cluster.createDatabase();
    const pool = createStorePool(url);
    try {
      await migratePostgres(pool);
      const sqlite = sqliteColumns();
      const postgres = await postgresColumns(url);
      expect(Object.keys(postgres).sort()).toEqual(Object.keys(sqlite).sort());
      expect(postgres).toEqual(sqlite);
      expect(Object.keys(sqlite)).toContain('uploaded_tasks'); // the last migration's table
    } finally {
      await pool.end();
    }
  });

  it('record how many ran, apply only the missing ones, and refuse a database a newer build migrated', async () => {
    const url = await cluster.createDatabase();
    const pool = createStorePool(url);
    try {
      expect(await postgresSchemaVersion(pool)).toBe(0);
      await migratePostgres(pool, 6);
      expect(await postgresSchemaVersion(pool)).toBe(6);
      // An older build's database: a run stored then, opened by this build.
      await pool.query("INSERT INTO runs (id, created_at, config) VALUES ('r', 1, '{}')");
      await migratePostgres(pool);
      expect(await postgresSchemaVersion(pool)).toBe(SCHEMA_VERSION);
      expect((await pool.query('SELECT id, visitor, route FROM runs')).rows).toEqual([
        { id: 'r', visitor: null, route: null },
      ]);
      await migratePostgres(pool); // nothing left to do
      expect(await postgresSchemaVersion(pool)).toBe(SCHEMA_VERSION);
      await pool.query('UPDATE loop_lab_schema SET version = $1', [SCHEMA_VERSION + 1]);
      await expect(migratePostgres(pool)).rejects.toThrow(/newer than this build understands/);
    } finally {
      await pool.end();
    }
  });

  it('migrates once when two processes open a new database at once', async () => {
    const url = await cluster.createDatabase();
    const [a, b] = await Promise.all([
      openPostgresStores({ url, dir: os.tmpdir() }),
      openPostgresStores({ url, dir: os.tmpdir() }),
    ]);
    try {
      await a.runs.createRun({ id: 'x', config: sampleConfig() });
      expect((await b.runs.getRun('x'))?.summary.id).toBe('x');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('says which database it could not open, without the password', async () => {
    const url = `postgres://loop_lab:s3cret-pw@127.0.0.1:${cluster.port}/no_such_database`;
    const error = await openPostgresStores({ url, dir: os.tmpdir() }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /could not open the Postgres store at postgres:\/\/loop_lab@127\.0\.0\.1:\d+\/no_such_database: .*does not exist/,
    );
    expect((error as Error).message).not.toContain('s3cret-pw');
  });
});

describe('the process-wide Postgres stores', () => {
  const saved = {
    DATABASE_URL: process.env.DATABASE_URL,
    LOOP_LAB_DATABASE_URL: process.env.LOOP_LAB_DATABASE_URL,
  };
  afterEach(async () => {
    await closePostgresStores();
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('are none without a database URL, and open once on DATABASE_URL', async () => {
    delete process.env.DATABASE_URL;
    delete process.env.LOOP_LAB_DATABASE_URL;
    expect(getPostgresStores()).toBeUndefined();
    process.env.DATABASE_URL = await cluster.createDatabase();
    const opening = getPostgresStores();
    expect(getPostgresStores()).toBe(opening);
    const stores = await opening!;
    await stores.runs.createRun({ id: 'r', config: sampleConfig() });
    expect((await stores.runs.listRuns()).map((r) => r.id)).toEqual(['r']);
  });

  it('are handed out at once, each call waiting for the opening', async () => {
    delete process.env.LOOP_LAB_DATABASE_URL;
    delete process.env.DATABASE_URL;
    expect(postgresStoresWhenOpen()).toBeUndefined();
    const url = await cluster.createDatabase();
    process.env.DATABASE_URL = url.replace(/\/[^/]+$/, '/not_there');
    const stores = postgresStoresWhenOpen()!;
    await expect(stores.runs.listRuns()).rejects.toThrow(/not_there: .*does not exist/);
    process.env.DATABASE_URL = url;
    await stores.runs.createRun({ id: 'r', config: sampleConfig() });
    await stores.visitors.claim('run', 'r', 'A');
    expect(await stores.visitors.runIdsOf('A', 5)).toEqual(['r']);
    expect(await Promise.resolve(stores.runs)).toBe(stores.runs); // not a thenable
  });

  it('stand behind getStore() and its siblings when DATABASE_URL is set', async () => {
    const global = globalThis as { __loopLabStore?: unknown; __loopLabVisitorStore?: unknown };
    const before = { runs: global.__loopLabStore, visitors: global.__loopLabVisitorStore };
    delete global.__loopLabStore;
    delete global.__loopLabVisitorStore;
    try {
      delete process.env.LOOP_LAB_DATABASE_URL;
      const url = await cluster.createDatabase();
      process.env.DATABASE_URL = url;
      await getStore().createRun({ id: 'via-getter', config: sampleConfig() });
      await getVisitorStore().claim('run', 'via-getter', 'A');
      const direct = await openPostgresStores({ url, dir: os.tmpdir() });
      try {
        expect((await direct.runs.listRuns()).map((r) => r.id)).toEqual(['via-getter']);
        expect(await direct.visitors.visitorOf('run', 'via-getter')).toBe('A');
      } finally {
        await direct.close();
      }
    } finally {
      global.__loopLabStore = before.runs;
      global.__loopLabVisitorStore = before.visitors;
    }
  });

  it('try again after an opening that failed', async () => {
    const url = await cluster.createDatabase();
    process.env.LOOP_LAB_DATABASE_URL = url.replace(/\/[^/]+$/, '/missing_database');
    await expect(getPostgresStores()!).rejects.toThrow(/missing_database: .*does not exist/);
    await Promise.resolve();
    process.env.LOOP_LAB_DATABASE_URL = url;
    expect(await (await getPostgresStores()!).runs.listRuns()).toEqual([]);
  });
});
