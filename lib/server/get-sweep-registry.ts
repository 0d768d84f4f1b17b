import 'server-only';
import { getCassetteStore, getPromptSetStore, getStore, getSweepStore } from '@/lib/store';
import { storedSweepCassettes } from '@/lib/sweeps/sweep-cassettes';
import { createSweepRunner, sweepRunnerKind } from '@/lib/sweeps/create-sweep-runner';
import { createSweepRegistry, type SweepRegistry } from './sweep-registry';
import { serverEnv } from '@/lib/config/server-env';

const globalForSweeps = globalThis as typeof globalThis & { __loopLabSweepRegistry?: SweepRegistry };

function removeDeadJobsFrom(
  redisUrl: string,
): (isDead: (sweepId: string) => Promise<boolean>) => Promise<number> {
  return async (isDead) => {
    const { removeDeadSweepJobs } = await import('@/lib/sweeps/bullmq-runner');
    return removeDeadSweepJobs({ redisUrl, isDead });
  };
}

/** The process-wide sweep registry (on globalThis, like the run registry, for every route bundle). */
export function getSweepRegistry(): SweepRegistry {
  const { redisUrl } = serverEnv();
  globalForSweeps.__loopLabSweepRegistry ??= createSweepRegistry({
    runStore: getStore(),
    sweepStore: getSweepStore(),
    createRunner: () => createSweepRunner(),
    runnerKind: sweepRunnerKind(),
    promptSets: (ref) => getPromptSetStore().getPromptSet(ref.name, ref.version),
    cassettes: () => storedSweepCassettes(getCassetteStore()),
    ...(redisUrl ? { removeDeadJobs: removeDeadJobsFrom(redisUrl) } : {}),
  });
  return globalForSweeps.__loopLabSweepRegistry;
}
