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

/**
 * The process-wide Postgres stores at once, for callers that take a store synchronously (the
 * getters of lib/store/get-store.ts): each method waits for the opening (migrations, closing what a
 * gone process left running) before it runs, and rejects with the opening's error when it failed;
 * the next call tries to open again. Undefined without a database URL.
 */
export function postgresStoresWhenOpen(): PostgresStores | undefined {
  if (getPostgresStores() === undefined) return undefined;
  const part = <K extends StoreName>(name: K): PostgresStores[K] =>
    whenOpen(async () => {
      const opening = getPostgresStores();
      if (opening === undefined) throw new Error('LOOP_LAB_DATABASE_URL and DATABASE_URL are no longer set');
      return (await opening)[name];
    });
  return {
    runs: part('runs'),
    sweeps: part('sweeps'),
    promptSets: part('promptSets'),
    cassettes: part('cassettes'),
    visitors: part('visitors'),
    wire: part('wire'),
    taskUploads: part('taskUploads'),
    close: closePostgresStores,
  };
}

type StoreName = Exclude<keyof PostgresStores, 'close'>;

/** A store whose every method first waits for `open()`: a Promise-returning interface only. */
function whenOpen<T extends object>(open: () => Promise<T>): T {
  return new Proxy({} as T, {
    get(_target, key) {
      // Not a thenable: awaiting the store itself gives the store.
      if (typeof key === 'symbol' || key === 'then') return undefined;
      return async (...args: unknown[]) => {
        const store = (await open()) as Record<string, (...a: unknown[]) => unknown>;
        const method = store[key];
        if (typeof method !== 'function') throw new Error(`the Postgres store has no method ${key}`);
        return await method.apply(store, args);
      };
    },
  });
}

/** Closes the process-wide Postgres stores, if open (tests; a server's shutdown). */
export async function closePostgresStores(): Promise<void> {
  const opening = globalForPostgres.__loopLabPostgresStores;
  delete globalForPostgres.__loopLabPostgresStores;
  if (opening) await (await opening).close();
}
