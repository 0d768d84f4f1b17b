import { createLocalPool, type SweepJobRunner } from './local-pool';

/** Which runner this process uses: BullMQ when LOOP_LAB_REDIS_URL names a Redis server. */
export function sweepRunnerKind(env: NodeJS.ProcessEnv = process.env): 'local' | 'bullmq' {
  return env.LOOP_LAB_REDIS_URL ? 'bullmq' : 'local';
}

/**
 * The runner for this process: the local worker pool, or BullMQ on Redis (then any number of
 * `npm run worker` processes run the jobs). Nothing else changes between the two.
 */
export async function createSweepRunner(options: { workers?: number; env?: NodeJS.ProcessEnv } = {}): Promise<SweepJobRunner> {
  const env = options.env ?? process.env;
  if (sweepRunnerKind(env) === 'bullmq') {
    const { createBullmqRunner } = await import('./bullmq-runner');
    return createBullmqRunner({ redisUrl: env.LOOP_LAB_REDIS_URL! });
  }
  return createLocalPool(options.workers ? { workers: options.workers } : {});
}
