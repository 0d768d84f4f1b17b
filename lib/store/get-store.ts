import path from 'node:path';
import type { RunStore } from './run-store';
import { createSqliteRunStore } from './sqlite-run-store';

/** The data folder: LOOP_LAB_DATA_DIR when set, else `.data/` in the project (git-ignored). */
export function dataDir(): string {
  return process.env.LOOP_LAB_DATA_DIR || path.join(process.cwd(), '.data');
}

const globalForStore = globalThis as typeof globalThis & { __loopLabStore?: RunStore };

/**
 * The process-wide store. Kept on globalThis so Next dev's hot reload, which re-evaluates
 * modules, reuses the open database instead of opening it again on every edit.
 */
export function getStore(): RunStore {
  globalForStore.__loopLabStore ??= createSqliteRunStore({ dir: dataDir() });
  return globalForStore.__loopLabStore;
}
