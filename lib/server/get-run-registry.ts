import 'server-only';
import { benchProbe, watchdogProbe } from '@/lib/clock/bench-probe';
import { launchRun } from '@/lib/runtime/launch-run';
import { benchDiagnosticsEnabled } from './bench-diagnostics';
import { createRunThreads, launchRealClockOnThreads, runThreadCount } from '@/lib/run-threads/run-threads';
import { getStore, getTaskUploadStore, getWireStore } from '@/lib/store';
import {
  createRunRegistry,
  type LocalRunRegistry,
  type RunRegistry,
  type RunRegistryOptions,
} from './run-registry';
import { createQueuedRunRegistry } from './queued-run-registry';
import { createKeyedRuns, watchKeyedHolds } from './keyed-runs';
import { createRunChannels } from './run-channels';
import { createRunQueue } from './run-jobs';
import { serverEnv } from '@/lib/config/server-env';
import { createRunTraffic, type RunTraffic } from './run-traffic';
import { copyUploadedTask } from './uploaded-task-files';

const globalForRegistry = globalThis as typeof globalThis & {
  __loopLabRunRegistry?: RunRegistry;
  __loopLabRunTraffic?: RunTraffic;
  __loopLabRunsResumed?: Promise<void>;
};

/** Where the runs executed here keep their model traffic for "Save as cassette" (lib/server/run-traffic.ts). */
export function getRunTraffic(): RunTraffic {
  globalForRegistry.__loopLabRunTraffic ??= createRunTraffic({ store: getWireStore() });
  return globalForRegistry.__loopLabRunTraffic;
}

/** LOOP_LAB_UNWATCHED_MS, default one minute: how long a run may go unwatched before it is abandoned. */
export function unwatchedMs(): number {
  return serverEnv().unwatchedMs;
}

/**
 * A registry that executes runs in this process: real-clock runs on run threads (2 unless
 * LOOP_LAB_RUN_THREADS says otherwise), so this thread's routing, storing and streaming cannot
 * make a run's timer late; with LOOP_LAB_RUN_THREADS=0, and for virtual-clock runs always, here.
 * The web process's registry without Redis, and each queue worker's (lib/server/run-jobs.ts).
 */
export function createLocalRunRegistry(
  options: Pick<RunRegistryOptions, 'onVendorRequest'> = {},
): LocalRunRegistry {
  benchDiagnosticsEnabled(); // switches the bench's probe on before any run, when the environment asks
  const listed = benchProbe();
  const probe = listed ? watchdogProbe(listed) : undefined;
  const count = runThreadCount();
  const launch = launchRealClockOnThreads(
    count > 0 ? createRunThreads({ threads: count }) : undefined,
    (options) => launchRun({ ...options, probe }),
  );
  return createRunRegistry({
    store: getStore(),
    launch,
    unwatchedMs: unwatchedMs(),
    traffic: getRunTraffic(),
    wire: getWireStore(),
    prepare: (config) => copyUploadedTask(config, { store: getTaskUploadStore() }),
    ...options,
  });
}

/**
 * The process-wide registry. On globalThis so live runs survive Next dev's hot reload and
 * every route bundle shares one set of runs. With LOOP_LAB_REDIS_URL set, runs execute on queue
 * workers (`npm run worker`) and this process creates, follows and controls them through Redis
 * and the shared store (lib/server/queued-run-registry.ts), but for a run that brings its own key,
 * which executes here (lib/server/keyed-runs.ts); otherwise they execute here.
 */
export function getRunRegistry(): RunRegistry {
  if (!globalForRegistry.__loopLabRunRegistry) {
    const { redisUrl } = serverEnv();
    const queue = redisUrl ? createRunQueue({ redisUrl }) : undefined;
    const channels = redisUrl ? createRunChannels({ redisUrl }) : undefined;
    if (channels) watchKeyedHolds({ store: getStore(), channels });
    globalForRegistry.__loopLabRunRegistry =
      queue && channels
        ? createQueuedRunRegistry({
            store: getStore(),
            channels,
            enqueue: queue.enqueue,
            keyed: createKeyedRuns({ channels, local: createLocalRunRegistry, unwatchedMs: unwatchedMs() }),
            onFailed: queue.onFailed,
          })
        : createLocalRunRegistry();
    // The runs a previous server process left in flight go on here, or are closed with the reason
    // (the registry's other methods wait for it).
    globalForRegistry.__loopLabRunsResumed = globalForRegistry.__loopLabRunRegistry.resumeInterrupted().then(
      () => {},
      (error: unknown) => {
        console.error(
          `[loop-lab] the runs a previous server left in flight were not taken up: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  }
  return globalForRegistry.__loopLabRunRegistry;
}

/** Makes the process-wide registry and resolves once it has taken up the runs a previous process left in flight. */
export async function startRunRegistry(): Promise<RunRegistry> {
  const registry = getRunRegistry();
  await globalForRegistry.__loopLabRunsResumed;
  return registry;
}
