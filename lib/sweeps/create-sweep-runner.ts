import { createLocalPool, type SweepJobRunner } from './local-pool';

/** The runner for this process: the local worker pool. */
export async function createSweepRunner(options: { workers?: number } = {}): Promise<SweepJobRunner> {
  return createLocalPool(options.workers ? { workers: options.workers } : {});
}
