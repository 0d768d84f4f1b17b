import 'server-only';
import { getStore, getSweepStore } from '@/lib/store';
import { createSweepRunner, sweepRunnerKind } from '@/lib/sweeps/create-sweep-runner';
import { createSweepRegistry, type SweepRegistry } from './sweep-registry';

const globalForSweeps = globalThis as typeof globalThis & { __loopLabSweepRegistry?: SweepRegistry };

/** The process-wide sweep registry (on globalThis, like the run registry, for every route bundle). */
export function getSweepRegistry(): SweepRegistry {
  globalForSweeps.__loopLabSweepRegistry ??= createSweepRegistry({
    runStore: getStore(),
    sweepStore: getSweepStore(),
    createRunner: () => createSweepRunner(),
    runnerKind: sweepRunnerKind(),
  });
  return globalForSweeps.__loopLabSweepRegistry;
}
