import { serverEnv } from '@/lib/config/server-env';
import { dataDir } from './data-dir';
import { openPostgresStores, type PostgresStores } from './postgres';

const globalForPostgres = globalThis as typeof globalThis & {
  __loopLabPostgresStores?: Promise<PostgresStores>;
};

/**
 * The process-wide Postgres stores when LOOP_LAB_DATABASE_URL (else DATABASE_URL) is set; undefined
 * without one (the store is SQLite in the data folder: lib/store/get-store.ts). Opened once, as the
 * server's store (runs a restart can resume are left for the run registry), kept on globalThis as
 * the SQLite store is; an opening that failed is forgotten, so the next call tries again.
 * Uploaded tasks' files stay in the data folder.
 */
export function getPostgresStores(): Promise<PostgresStores> | undefined {
  const { databaseUrl } = serverEnv();
  if (databaseUrl === undefined) return undefined;
  if (!globalForPostgres.__loopLabPostgresStores) {
    const opening = openPostgresStores({ url: databaseUrl, dir: dataDir(), keepResumable: true });
    globalForPostgres.__loopLabPostgresStores = opening;
    opening.catch(() => {
      if (globalForPostgres.__loopLabPostgresStores === opening)
        delete globalForPostgres.__loopLabPostgresStores;
    });
  }
  return globalForPostgres.__loopLabPostgresStores;
}

/** Closes the process-wide Postgres stores, if open (tests; a server's shutdown). */
export async function closePostgresStores(): Promise<void> {
  const opening = globalForPostgres.__loopLabPostgresStores;
  delete globalForPostgres.__loopLabPostgresStores;
  if (opening) await (await opening).close();
}
