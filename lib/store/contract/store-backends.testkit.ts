import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '@/lib/testing/postgres-cluster';
import type { CassetteStore } from '../cassette-store';
import { openPostgresStores } from '../postgres';
import type { PromptSetStore } from '../prompt-set-store';
import type { RunStore } from '../run-store';
import { createSqliteCassetteStore } from '../sqlite-cassette-store';
import { createSqlitePromptSetStore } from '../sqlite-prompt-set-store';
import { createSqliteRunStore, DB_FILE_NAME } from '../sqlite-run-store';
import { createSqliteSweepStore } from '../sqlite-sweep-store';
import { createSqliteTaskUploadStore } from '../sqlite-task-upload-store';
import { createSqliteVisitorStore } from '../sqlite-visitor-store';
import { createSqliteWireStore } from '../sqlite-wire-store';
import type { SweepStore } from '../sweep-store';
import type { TaskUploadStore } from '../task-upload-store';
import type { VisitorStore } from '../visitor-store';
import type { WireStore } from '../wire-store';

/**
 * A store as either backend has it: each method's result, or a Promise of it. The contract
 * suites `await` every call, so they hold of a synchronous store and of an async one alike.
 */
export type EitherStore<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Awaited<R> | Promise<Awaited<R>>
    : T[K];
};

/** The seven stores opened on one place, as a process starting opens them. */
export interface OpenStores {
  runs: EitherStore<RunStore>;
  sweeps: EitherStore<SweepStore>;
  promptSets: EitherStore<PromptSetStore>;
  cassettes: EitherStore<CassetteStore>;
  visitors: EitherStore<VisitorStore>;
  wire: EitherStore<WireStore>;
  taskUploads: EitherStore<TaskUploadStore>;
  close(): Promise<void>;
}

export interface OpenOptions {
  keepResumable?: boolean;
  now?: () => number;
}

/** One test's store place on one backend: an empty data folder, and for Postgres an empty database. */
export interface StoreBackend {
  name: BackendName;
  /** The data folder (uploaded tasks' files live there on both backends). */
  dir: string;
  /** Opens the seven stores on the place: a new opening with its own owner id, as a new process. */
  open(options?: OpenOptions): Promise<OpenStores>;
  /** Writes a run's or a sweep's owner as another process's opening would have. */
  setOwner(table: 'runs' | 'sweeps', id: string, owner: string | null): Promise<void>;
}

export type BackendName = 'sqlite' | 'postgres';
export const BACKENDS: readonly BackendName[] = ['sqlite', 'postgres'];

/**
 * Registers the hooks that give each test of the enclosing describe a fresh place on `name`, and
 * returns the current test's backend. Postgres: one throwaway cluster for the describe (started
 * before its first test; when it cannot start, every test of the describe fails with the reason),
 * a new database per test. Every store a test opened is closed after it.
 */
export function useStoreBackend(name: BackendName): () => StoreBackend {
  // Started by the describe's first test; when it cannot start, every test fails with the reason.
  let cluster: Promise<PostgresCluster> | undefined;
  let current: StoreBackend | undefined;
  let opened: OpenStores[] = [];

  if (name === 'postgres') {
    // Stopping the cluster checkpoints and removes every test's database: on a busy machine, past 10 s.
    afterAll(async () => {
      const started = await cluster?.catch(() => undefined);
      await started?.stop();
    }, 120_000);
  }

  beforeEach(async () => {
    let url = '';
    if (name === 'postgres') {
      cluster ??= startPostgresCluster();
      url = await (await cluster).createDatabase();
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `loop-lab-contract-${name}-`));
    const track = (stores: OpenStores): OpenStores => {
      opened.push(stores);
      return stores;
    };
    if (name === 'sqlite') {
      current = {
        name,
        dir,
        open: async ({ keepResumable = false, now } = {}) => track(openSqlite(dir, keepResumable, now)),
        async setOwner(table, id, owner) {
          const db = new Database(path.join(dir, DB_FILE_NAME));
          db.prepare(`UPDATE ${table} SET owner = ? WHERE id = ?`).run(owner, id);
          db.close();
        },
      };
    } else {
      current = {
        name,
        dir,
        open: async ({ keepResumable = false, now } = {}) =>
          track(await openPostgresStores({ url, dir, keepResumable, ...(now ? { now } : {}) })),
        async setOwner(table, id, owner) {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            await client.query(`UPDATE ${table} SET owner = $1 WHERE id = $2`, [owner, id]);
          } finally {
            await client.end();
          }
        },
      };
    }
  }, 120_000);

  afterEach(async () => {
    for (const stores of opened) await stores.close();
    opened = [];
    if (current) fs.rmSync(current.dir, { recursive: true, force: true });
    current = undefined;
  });

  return () => {
    if (!current) throw new Error('no store backend outside a test');
    return current;
  };
}

function openSqlite(dir: string, keepResumable: boolean, now: (() => number) | undefined): OpenStores {
  const clock = now ? { now } : {};
  const stores = {
    runs: createSqliteRunStore({ dir, keepResumable }),
    sweeps: createSqliteSweepStore({ dir }),
    promptSets: createSqlitePromptSetStore({ dir, ...clock }),
    cassettes: createSqliteCassetteStore({ dir, ...clock }),
    visitors: createSqliteVisitorStore({ dir }),
    wire: createSqliteWireStore({ dir }),
    taskUploads: createSqliteTaskUploadStore({ dir, ...clock }),
  };
  let closed = false;
  return {
    ...stores,
    async close() {
      if (closed) return;
      closed = true;
      for (const store of Object.values(stores)) await store.close();
    },
  };
}

/** A call's failure as a rejection, whether the store threw or its Promise rejected. */
export async function attempt(call: () => unknown): Promise<unknown> {
  return await call();
}
