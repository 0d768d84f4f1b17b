import 'server-only';
import { launchRun } from '@/lib/runtime/launch-run';
import { getStore } from '@/lib/store';
import { createRunRegistry, type RunRegistry } from './run-registry';
import { serverEnv } from '@/lib/config/server-env';

const globalForRegistry = globalThis as typeof globalThis & { __loopLabRunRegistry?: RunRegistry };

/** LOOP_LAB_UNWATCHED_MS, default one minute: how long a run may go unwatched before it is abandoned. */
export function unwatchedMs(): number {
  return serverEnv().unwatchedMs;
}

/**
 * The process-wide registry. On globalThis so live runs survive Next dev's hot reload and
 * every route bundle shares one set of runs.
 */
export function getRunRegistry(): RunRegistry {
  globalForRegistry.__loopLabRunRegistry ??= createRunRegistry({ store: getStore(), launch: launchRun, unwatchedMs: unwatchedMs() });
  return globalForRegistry.__loopLabRunRegistry;
}
