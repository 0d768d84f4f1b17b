import type { CassetteStore } from '../cassette-store';
import type { PromptSetStore } from '../prompt-set-store';
import { createOwnerId } from '../run-owner';
import type { RunStore } from '../run-store';
import type { SweepStore } from '../sweep-store';
import type { TaskUploadStore } from '../task-upload-store';
import type { VisitorStore } from '../visitor-store';
import type { WireStore } from '../wire-store';
import { createPostgresCassetteStore } from './cassette-store';
import { createStorePool } from './pool';
import { createPostgresPromptSetStore } from './prompt-set-store';
import { createPostgresRunStore } from './run-store';
import { migratePostgres } from './schema';
import { closeInterruptedSweeps, createPostgresSweepStore } from './sweep-store';
import { createPostgresTaskUploadStore } from './task-upload-store';
import { createPostgresVisitorStore } from './visitor-store';
import { createPostgresWireStore } from './wire-store';

export { migratePostgres, postgresSchemaVersion } from './schema';

/** The seven stores on one Postgres database, one pool, one owner id for this opening. */
export interface PostgresStores {
  runs: RunStore;
  sweeps: SweepStore;
  promptSets: PromptSetStore;
  cassettes: CassetteStore;
  visitors: VisitorStore;
  wire: WireStore;
  taskUploads: TaskUploadStore;
  /** Closes every store and ends the pool (each store's own close() ends it once all are closed). */
  close(): Promise<void>;
}

export interface OpenPostgresStoresOptions {
  /** A postgres:// URL (DATABASE_URL). */
  url: string;
  /** The data folder: uploaded task folders' files are kept there (lib/store/data-dir.ts). */
  dir: string;
  /** As the SQLite run store's: leave runs a restart can resume for the run registry to claim. */
  keepResumable?: boolean;
  /** The clock of saved prompt sets, cassettes and uploads (tests). */
  now?: () => number;
  /** Most connections the pool opens (default 10). */
  maxConnections?: number;
}

/**
 * Opens the store on Postgres, as the SQLite stores open on their file: migrates the database to
 * the current schema (lib/store/migrations.ts), closes the runs and sweeps a gone process left
 * running (but, with `keepResumable`, the runs the registry will resume), then hands out the
 * seven stores on one pool. The URL's password is never put in an error: a failure to connect
 * names the host and database only.
 */
export async function openPostgresStores({
  url,
  dir,
  keepResumable = false,
  now,
  maxConnections,
}: OpenPostgresStoresOptions): Promise<PostgresStores> {
  const pool = createStorePool(url, maxConnections !== undefined ? { max: maxConnections } : {});
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`could not open the Postgres store at ${describeUrl(url)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const owner = createOwnerId();

  let open = 7;
  let ended: Promise<void> | undefined;
  const closedOnce = new Set<string>();
  const releaseFor = (name: string) => async (): Promise<void> => {
    if (!closedOnce.has(name)) {
      closedOnce.add(name);
      open -= 1;
    }
    if (open === 0) {
      ended ??= pool.end();
      await ended;
    }
  };

  const clock = now !== undefined ? { now } : {};
  const runs = createPostgresRunStore({ pool, owner, release: releaseFor('runs') });
  const stores: PostgresStores = {
    runs,
    sweeps: createPostgresSweepStore({ pool, owner, release: releaseFor('sweeps') }),
    promptSets: createPostgresPromptSetStore({ pool, ...clock, release: releaseFor('promptSets') }),
    cassettes: createPostgresCassetteStore({ pool, ...clock, release: releaseFor('cassettes') }),
    visitors: createPostgresVisitorStore({ pool, release: releaseFor('visitors') }),
    wire: createPostgresWireStore({ pool, release: releaseFor('wire') }),
    taskUploads: createPostgresTaskUploadStore({ pool, dir, ...clock, release: releaseFor('taskUploads') }),
    async close() {
      for (const name of ['runs', 'sweeps', 'promptSets', 'cassettes', 'visitors', 'wire', 'taskUploads'])
        await releaseFor(name)();
    },
  };
  try {
    // Runs and sweeps a previous process left running are closed before anyone can list them.
    await runs.closeAtOpen(keepResumable);
    await closeInterruptedSweeps(pool, owner);
  } catch (error) {
    await stores.close();
    throw error;
  }
  return stores;
}

/** The URL without its password: user, host, port and database. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString().replace(/^(\w+:\/\/[^:@/]*):?@/, '$1@');
  } catch {
    return 'a DATABASE_URL that is not a URL (expected postgres://user:password@host:port/database)';
  }
}
