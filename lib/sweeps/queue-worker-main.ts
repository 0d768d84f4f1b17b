import { Worker } from 'bullmq';
import { parseArgs } from 'node:util';
import { redisConnection, SWEEP_QUEUE, type QueuedSweepJob } from './bullmq-runner';
import { createLocalPool, defaultWorkerCount } from './local-pool';
import { createRedisGate } from './redis-endpoint-gate';
import type { SweepJobResult } from './run-sweep-job';
import { serverEnv } from '@/lib/config/server-env';

/** Starts a sweep worker on the queue at `url`; resolves once it takes jobs, with its stop. */
export async function startSweepWorker({
  url,
  threads,
  ratePerMin,
}: {
  url: string;
  threads: number;
  ratePerMin: number;
}): Promise<() => Promise<void>> {
  // Real-endpoint jobs go through the endpoints' limiters in Redis: one for every worker process.
  const pool = createLocalPool({ workers: threads, gate: createRedisGate({ redisUrl: url }) });
  const worker = new Worker<QueuedSweepJob, SweepJobResult>(SWEEP_QUEUE, (job) => pool.run(job.data), {
    connection: redisConnection(url),
    concurrency: threads,
    ...(ratePerMin > 0 ? { limiter: { max: ratePerMin, duration: 60_000 } } : {}),
  });
  worker.on('failed', (job, error) => console.error(`worker: job ${job?.id} failed: ${error.message}`));
  await worker.waitUntilReady();
  return async () => {
    await worker.close();
    await pool.close();
  };
}

/** What `npm run worker` was asked for: the Redis, the threads, the rate cap; exits with the problem otherwise. */
export function workerArgs(): {
  url: string;
  threads: number;
  ratePerMin: number;
  runs: boolean;
  logRequests: boolean;
} {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string' },
      'rate-per-min': { type: 'string' },
      // Sweeps only: a worker that does not open the web instances' store (another machine).
      'no-runs': { type: 'boolean' },
      // One line for each vendor request a run sends from here (which worker sent what, when two held a run).
      'log-requests': { type: 'boolean' },
    },
    strict: true,
  });
  const env = serverEnv();
  const url = env.redisUrl;
  if (!url) {
    console.error(
      'worker: set LOOP_LAB_REDIS_URL to the Redis server the sweeps use, e.g. redis://127.0.0.1:6379',
    );
    process.exit(2);
  }
  const threads = values.workers ? Number(values.workers) : defaultWorkerCount();
  if (!Number.isInteger(threads) || threads < 1) {
    console.error(`worker: --workers must be a whole number ≥ 1, got "${values.workers}"`);
    process.exit(2);
  }
  // BullMQ's rate limiter: at most this many jobs a minute across every worker (for sweeps
  // that spend real vendor requests). Unset: no cap.
  const ratePerMin =
    values['rate-per-min'] === undefined ? env.workerRatePerMin : Number(values['rate-per-min']);
  return {
    url,
    threads,
    ratePerMin,
    runs: values['no-runs'] !== true,
    logRequests: values['log-requests'] === true,
  };
}

/** Redis's address with any password left out, for a log line. */
export const shownUrl = (url: string): string => url.replace(/\/\/[^@/]*@/, '//…@');

/**
 * A stateless sweep worker (`npm run worker` runs this and the run worker: lib/cli/worker-main.ts).
 * It takes jobs from the Redis queue named by LOOP_LAB_REDIS_URL, runs them on this machine's
 * cores (the same worker-thread pool as a local sweep) and sends each run's log and metrics back
 * through the queue. It keeps no state: start as many as you like, anywhere that reaches Redis;
 * stop one with Ctrl-C.
 */
async function main(): Promise<void> {
  const { url, threads, ratePerMin } = workerArgs();
  const stopSweeps = await startSweepWorker({ url, threads, ratePerMin });
  console.log(
    `worker: ${threads} thread${threads === 1 ? '' : 's'} on queue ${SWEEP_QUEUE} at ${shownUrl(url)}`,
  );
  const stop = async (): Promise<void> => {
    await stopSweeps();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

if (process.argv[1]?.endsWith('queue-worker-main.ts')) {
  main().catch((error: unknown) => {
    console.error(`worker: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
