import { processEnv, serverEnv, type EnvSource } from '@/lib/config/server-env';
import { createLocalPool, type SweepJobRunner } from './local-pool';

/** Which runner this process uses: BullMQ when LOOP_LAB_REDIS_URL names a Redis server. */
export function sweepRunnerKind(env: EnvSource = processEnv()): 'local' | 'bullmq' {
  return serverEnv(env).redisUrl ? 'bullmq' : 'local';
}

/**
 * The runner for this process: the local worker pool, or BullMQ on Redis (then any number of
 * `npm run worker` processes run the jobs). Nothing else changes between the two.
 */
export async function createSweepRunner(
  options: { workers?: number; env?: EnvSource } = {},
): Promise<SweepJobRunner> {
  const { redisUrl } = serverEnv(options.env ?? processEnv());
  if (redisUrl) {
    const { createBullmqRunner } = await import('./bullmq-runner');
    return createBullmqRunner({ redisUrl });
  }
  return createLocalPool(options.workers ? { workers: options.workers } : {});
}
