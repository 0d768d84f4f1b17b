import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { createSqliteRunStore, createSqliteSweepStore, type RunStore, type SweepStore } from '@/lib/store';
import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { createBullmqRunner, SWEEP_QUEUE } from './bullmq-runner';
import { executeSweep } from './execute-sweep';
import { SMALL_GRID } from './execute-sweep-grid.testkit';
import { createLocalPool } from './local-pool';
import { startLocalRedis, type LocalRedis } from '@/lib/testing/local-redis';
import { startQueueWorkers, stopQueueWorkers } from './queue-workers.testkit';

/**
 * The Redis path for real: a redis-server on a free localhost port, two `npm run worker`
 * processes, the small sweep through BullMQ — and the same table as the local pool.
 */
let redis: LocalRedis;
let url: string;
const workers: ChildProcess[] = [];
let runStore: RunStore;
let sweepStore: SweepStore;

beforeAll(async () => {
  redis = await startLocalRedis('bullmq');
  url = redis.url;
  await startQueueWorkers(workers, url);
  runStore = createSqliteRunStore({ dir: redis.dir });
  sweepStore = createSqliteSweepStore({ dir: redis.dir });
}, 180_000);

afterAll(async () => {
  await stopQueueWorkers(workers);
  await runStore?.close();
  await sweepStore?.close();
  redis?.stop();
});

describe('sweeps through BullMQ on a real Redis', () => {
  it('two worker processes give the same table as the local pool', async () => {
    const grid = SweepGridSchema.parse(SMALL_GRID);
    const queued = await createBullmqRunner({ redisUrl: url });
    let viaRedis;
    try {
      viaRedis = await executeSweep({ sweepId: 'sw-redis', grid, runner: queued, runStore, sweepStore });
    } finally {
      await queued.close();
    }
    const local = createLocalPool({ workers: 2 });
    let viaPool;
    try {
      viaPool = await executeSweep({ sweepId: 'sw-local', grid, runner: local, runStore, sweepStore });
    } finally {
      await local.close();
    }
    expect(viaRedis.status).toBe('completed');
    expect((await sweepStore.getSweep('sw-redis'))?.summary.runner).toBe('bullmq');
    expect(viaRedis.rows).toHaveLength(4);
    expect(viaRedis.rows).toEqual(viaPool.rows);
    // Each run's log came back through the queue whole and was stored.
    expect(await runStore.listRuns({ sweepId: 'sw-redis', limit: 100 })).toHaveLength(20);
    expect((await runStore.readEvents({ runId: 'sw-redis-0' })).at(-1)?.event).toBe('terminate');
  }, 300_000);

  it("finishes a sweep whose completions its event reader missed, from the jobs' state in Redis", async () => {
    const grid = SweepGridSchema.parse({ ...SMALL_GRID, seeds: { from: 1, to: 1 } });
    const queued = await createBullmqRunner({ redisUrl: url });
    const admin = new Redis(url);
    const jobs = new Queue(SWEEP_QUEUE, { connection: { url } });
    let killing = true;
    try {
      // The runner's event reader (BullMQ names its connection "…:qe") keeps losing its connection
      // until every job of the sweep has completed in Redis: it never reads an event, so it starts
      // again from the stream's end each time, and no completion ever reaches it as an event.
      const killer = (async () => {
        while (killing) {
          const clients = String(await admin.call('CLIENT', 'LIST'));
          for (const [, id] of clients.matchAll(/(?:^|\n)id=(\d+) [^\n]*name=\S*:qe\b/g))
            await admin.call('CLIENT', 'KILL', 'ID', id!);
          const done = await Promise.all([0, 1, 2, 3].map((i) => jobs.getJobState(`sw-missed-${i}`)));
          if (done.every((state) => state === 'completed')) killing = false;
          else await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const outcome = await executeSweep({
        sweepId: 'sw-missed',
        grid,
        runner: queued,
        runStore,
        sweepStore,
      });
      // (Read from Redis, a job's result is collected and the job removed: it never shows as completed.)
      killing = false;
      await killer;
      expect(outcome.status).toBe('completed');
      expect((await sweepStore.getSweep('sw-missed'))?.summary).toMatchObject({
        status: 'completed',
        done: 4,
        total: 4,
      });
      expect(await runStore.listRuns({ sweepId: 'sw-missed', limit: 10 })).toHaveLength(4);
    } finally {
      killing = false;
      admin.disconnect();
      await jobs.close();
      await queued.close();
    }
  }, 120_000);
});
