import type pg from 'pg';
import { MIGRATIONS, migrationSql, SCHEMA_VERSION } from '../migrations';
import { inTransaction } from './pool';

/** An arbitrary constant: the advisory lock two processes migrating one database at once share. */
const MIGRATION_LOCK = 0x6c6f6f70; // "loop"

/**
 * Applies the store's migrations (lib/store/migrations.ts) to a Postgres database: the
 * `loop_lab_schema` table records how many ran, as SQLite's `PRAGMA user_version` does. The steps
 * a database lacks and the version after them are one transaction (Postgres's DDL is
 * transactional: a failed step leaves the database as it was); an advisory lock makes a second
 * process opening the same database at once wait, then find the steps done. Refuses a database
 * migrated by a newer build. `to`: an earlier version, for tests.
 */
export async function migratePostgres(pool: pg.Pool, to = SCHEMA_VERSION): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS loop_lab_schema (version INTEGER NOT NULL, one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one))',
    );
    await client.query('INSERT INTO loop_lab_schema (version) VALUES (0) ON CONFLICT DO NOTHING');
    const current = (await client.query<{ version: number }>('SELECT version FROM loop_lab_schema')).rows[0]!
      .version;
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `run store schema version ${current} is newer than this build understands (${SCHEMA_VERSION}); ` +
          'use a newer Loop Lab or point DATABASE_URL at another database',
      );
    }
    for (let version = current; version < to; version += 1) {
      await client.query(migrationSql(MIGRATIONS[version]!, 'postgres'));
      await client.query('UPDATE loop_lab_schema SET version = $1', [version + 1]);
    }
  });
}

/** How many migrations the database has had (0 for one never opened by the store). */
export async function postgresSchemaVersion(pool: pg.Pool): Promise<number> {
  const exists = await pool.query("SELECT to_regclass('loop_lab_schema') IS NOT NULL AS present");
  if (!(exists.rows[0] as { present: boolean }).present) return 0;
  return ((await pool.query('SELECT version FROM loop_lab_schema')).rows[0] as { version: number }).version;
}
