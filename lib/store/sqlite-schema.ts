import type { Database } from 'better-sqlite3';
import { MIGRATIONS, migrationSql, SCHEMA_VERSION } from './migrations';

export { SCHEMA_VERSION };

/**
 * Applies the store's migrations (lib/store/migrations.ts) to a SQLite file; `PRAGMA user_version`
 * records how many ran.
 *
 * Brings the database up to SCHEMA_VERSION (`to`: an earlier version, for tests that make a
 * database as an older build left it); refuses a file written by a newer version.
 */
export function migrate(db: Database, to = SCHEMA_VERSION): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `run store schema version ${current} is newer than this build understands (${SCHEMA_VERSION}); ` +
        'use a newer Loop Lab or point LOOP_LAB_DATA_DIR at another folder',
    );
  }
  for (let version = current; version < to; version += 1) {
    // Several processes may open a new data folder at once (web instances and workers): each step
    // takes the write lock first and is skipped when another process has applied it meanwhile.
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) > version) return;
      db.exec(migrationSql(MIGRATIONS[version]!, 'sqlite'));
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}
