import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNextServer, type NextServer } from '@/lib/bench/next-server';
import { startPostgresCluster, type PostgresCluster } from '@/lib/testing/postgres-cluster';
import { kill, startRedis, startWorker, type Started } from './processes.testkit';
import { holdersByPid, postgresRunning } from './run-queue.testkit';

/**
 * A deployment of several machines on this one, as docs/deploy.md draws it: a real redis-server,
 * a real Postgres (a throwaway cluster, one database) as the one store, web instances that are
 * each `next start` of the production build, and `npm run worker` processes. Every process has a
 * data folder of its own, as on machines of their own: what they share is Redis and Postgres.
 */
export interface Deployment {
  redisUrl: string;
  databaseUrl: string;
  /** The web instances (`base` is the origin; the API is under `/api`). */
  web: NextServer[];
  workers: Started[];
  /** How many of the runs `ids` each worker (its pid) holds now, as the store says. */
  holders(ids: readonly string[]): Promise<Map<number, number>>;
  /** Stops every process and removes every folder it made. */
  stop(): Promise<void>;
}

/**
 * Starts Redis and Postgres, then the web instances and the workers at once, and resolves when
 * all answer. `root` is the checkout with the build (`.next`); `env` goes to every web instance
 * and worker (e.g. LOOP_LAB_RUN_LOCK_MS). A part that fails to start stops what did start.
 */
export async function startDeployment(
  options: { root?: string; webInstances?: number; workers?: number; env?: Record<string, string> } = {},
): Promise<Deployment> {
  const root = options.root ?? process.cwd();
  const folders: string[] = [];
  const folder = (prefix: string): string => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(made);
    return made;
  };
  const web: NextServer[] = [];
  const workers: Started[] = [];
  let redis: (Started & { url: string }) | undefined;
  let cluster: PostgresCluster | undefined;
  const stop = async (): Promise<void> => {
    await Promise.all(web.map(stopWeb));
    await Promise.all(workers.map((w) => kill(w.child)));
    if (redis) await kill(redis.child);
    await cluster?.stop();
    for (const made of folders) fs.rmSync(made, { recursive: true, force: true });
  };
  try {
    const [redisStart, postgresStart] = await Promise.allSettled([
      startRedis(folder('loop-lab-deployment-redis-')),
      startPostgresCluster(),
    ]);
    if (redisStart.status === 'fulfilled') redis = redisStart.value;
    if (postgresStart.status === 'fulfilled') cluster = postgresStart.value;
    firstFailure([redisStart, postgresStart]);
    const redisUrl = redis!.url;
    const databaseUrl = await cluster!.createDatabase();
    const env: Record<string, string> = {
      LOOP_LAB_REDIS_URL: redisUrl,
      LOOP_LAB_DATABASE_URL: databaseUrl,
      // Runs are followed from the moment they start; none is left to be aborted as abandoned.
      LOOP_LAB_UNWATCHED_MS: '600000',
      ...options.env,
    };
    // Settled, not raced: on a failure every process that did start is known to `stop`.
    const starting = await Promise.allSettled([
      ...Array.from({ length: options.webInstances ?? 2 }, async () => {
        web.push(
          await startNextServer({
            root,
            prefix: 'loop-lab-deployment-web-',
            startMs: 180_000, // as long as a worker may take (scripts/api/processes.testkit.ts)
            env: (base) => ({ ...base, ...env }),
          }),
        );
      }),
      ...Array.from({ length: options.workers ?? 2 }, async () => {
        workers.push(await startWorker(folder('loop-lab-deployment-worker-'), env));
      }),
    ]);
    firstFailure(starting);
    return {
      redisUrl,
      databaseUrl,
      web,
      workers,
      holders: async (ids) => holdersByPid(await postgresRunning(databaseUrl), ids),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Throws the first of these starts that failed. */
function firstFailure(starts: readonly PromiseSettledResult<unknown>[]): void {
  const failed = starts.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Stops a web instance: SIGTERM, and SIGKILL when it has not exited 10 s later. */
async function stopWeb(server: NextServer): Promise<void> {
  const late = setTimeout(() => {
    try {
      if (server.pid !== undefined) process.kill(server.pid, 'SIGKILL');
    } catch {
      // it exited meanwhile
    }
  }, 10_000);
  try {
    await server.stop();
  } finally {
    clearTimeout(late);
  }
}
