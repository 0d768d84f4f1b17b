import type { RunStore } from './run-store';
import { createSqliteRunStore } from './sqlite-run-store';
import { createSqliteSweepStore } from './sqlite-sweep-store';
import type { SweepStore } from './sweep-store';
import type { PromptSetStore } from './prompt-set-store';
import { createSqlitePromptSetStore } from './sqlite-prompt-set-store';
import type { CassetteStore } from './cassette-store';
import { createSqliteCassetteStore } from './sqlite-cassette-store';
import type { VisitorStore } from './visitor-store';
import type { WireStore } from './wire-store';
import { createSqliteWireStore } from './sqlite-wire-store';
import { createSqliteVisitorStore } from './sqlite-visitor-store';
import type { TaskUploadStore } from './task-upload-store';
import { createSqliteTaskUploadStore } from './sqlite-task-upload-store';
import { dataDir } from './data-dir';
import { postgresStoresWhenOpen } from './get-postgres-stores';

export { dataDir };

const globalForStore = globalThis as typeof globalThis & { __loopLabStore?: RunStore };

/**
 * The process-wide store: Postgres when LOOP_LAB_DATABASE_URL (or DATABASE_URL) names a database
 * (lib/store/get-postgres-stores.ts; every store below is there too), else SQLite in the data
 * folder. Kept on globalThis so Next dev's hot reload, which re-evaluates
 * modules, reuses the open database instead of opening it again on every edit.
 */
export function getStore(): RunStore {
  // The server's store: runs a restart can resume are left for the run registry (lib/server/resume-runs.ts).
  globalForStore.__loopLabStore ??=
    postgresStoresWhenOpen()?.runs ?? createSqliteRunStore({ dir: dataDir(), keepResumable: true });
  return globalForStore.__loopLabStore;
}

const globalForSweeps = globalThis as typeof globalThis & { __loopLabSweepStore?: SweepStore };

/** The process-wide sweep store, on the same data folder as the run store. */
export function getSweepStore(): SweepStore {
  globalForSweeps.__loopLabSweepStore ??=
    postgresStoresWhenOpen()?.sweeps ?? createSqliteSweepStore({ dir: dataDir() });
  return globalForSweeps.__loopLabSweepStore;
}

const globalForPromptSets = globalThis as typeof globalThis & { __loopLabPromptSetStore?: PromptSetStore };

/** The process-wide prompt set store, on the same data folder as the run store. */
export function getPromptSetStore(): PromptSetStore {
  globalForPromptSets.__loopLabPromptSetStore ??=
    postgresStoresWhenOpen()?.promptSets ?? createSqlitePromptSetStore({ dir: dataDir() });
  return globalForPromptSets.__loopLabPromptSetStore;
}

const globalForCassettes = globalThis as typeof globalThis & { __loopLabCassetteStore?: CassetteStore };

/** The process-wide cassette store, on the same data folder as the run store. */
export function getCassetteStore(): CassetteStore {
  globalForCassettes.__loopLabCassetteStore ??=
    postgresStoresWhenOpen()?.cassettes ?? createSqliteCassetteStore({ dir: dataDir() });
  return globalForCassettes.__loopLabCassetteStore;
}

const globalForVisitors = globalThis as typeof globalThis & { __loopLabVisitorStore?: VisitorStore };

/** The process-wide ownership records of room mode, on the same data folder as the run store. */
export function getVisitorStore(): VisitorStore {
  globalForVisitors.__loopLabVisitorStore ??=
    postgresStoresWhenOpen()?.visitors ?? createSqliteVisitorStore({ dir: dataDir() });
  return globalForVisitors.__loopLabVisitorStore;
}

const globalForWire = globalThis as typeof globalThis & { __loopLabWireStore?: WireStore };

/** The process-wide store of each run's wire (its attempt cards) and traffic (its cassette), on the same data folder as the run store. */
export function getWireStore(): WireStore {
  globalForWire.__loopLabWireStore ??=
    postgresStoresWhenOpen()?.wire ?? createSqliteWireStore({ dir: dataDir() });
  return globalForWire.__loopLabWireStore;
}

const globalForTasks = globalThis as typeof globalThis & { __loopLabTaskUploadStore?: TaskUploadStore };

/** The process-wide store of uploaded task folders, on the same data folder as the run store. */
export function getTaskUploadStore(): TaskUploadStore {
  globalForTasks.__loopLabTaskUploadStore ??=
    postgresStoresWhenOpen()?.taskUploads ?? createSqliteTaskUploadStore({ dir: dataDir() });
  return globalForTasks.__loopLabTaskUploadStore;
}
