import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { createSqliteRunStore, createSqliteSweepStore, DB_FILE_NAME } from '@/lib/store';
import { redisConnection, removeDeadSweepJobs, SWEEP_QUEUE } from '@/lib/sweeps/bullmq-runner';
import { createSweepRegistry } from './sweep-registry';
import { deadPid } from '@/lib/testing/local-process';
import { startLocalRedis, type LocalRedis } from '@/lib/testing/local-redis';

/**
 * A server that died mid-sweep leaves the sweep's jobs in Redis: some already run by the
 * workers (their results never collected), some still waiting. Starting again removes them,
 * and leaves alone the jobs of a sweep another live process runs and of sweeps it does not know.
 */
let redis: LocalRedis;
let dir: string;
let url: string;

beforeAll(async () => {
  redis = await startLocalRedis('dead-jobs');
  ({ dir, url } = redis);
}, 60_000);

afterAll(() => redis?.stop());

function setSweepOwner(id: string, owner: string): void {
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.prepare('UPDATE sweeps SET owner = ? WHERE id = ?').run(owner, id);
  db.close();
}

describe('queue jobs of a dead sweep', () => {
  it('are removed from Redis when the server starts again', async () => {
    const grid = SweepGridSchema.parse({
      configurations: [{ id: 'c', preset: 'codesmith' }],
      seeds: [1, 2, 3],
    });
    const before = createSqliteSweepStore({ dir });
    await before.createSweep({ id: 'sweep-dead', name: 'dead', grid, total: 3, runner: 'bullmq' });
    await before.createSweep({ id: 'sweep-live', name: 'live', grid, total: 3, runner: 'bullmq' });
    await before.close();
    setSweepOwner('sweep-dead', `${os.hostname()}:${deadPid()}:an-opening`);
    setSweepOwner('sweep-live', `${os.hostname()}:${process.ppid}:another-opening`);

    const queue = new Queue(SWEEP_QUEUE, { connection: redisConnection(url) });
    const payload = (sweepId: string, index: number) => ({ sweepId, job: { index } });
    // Job 0 of the dead sweep was run by a worker after the crash: its result sits in Redis.
    await queue.add('run', payload('sweep-dead', 0), { jobId: 'sweep-dead-0' });
    const worker = new Worker(SWEEP_QUEUE, async () => ({ log: 'a result nobody reads' }), {
      connection: redisConnection(url),
    });
    const deadline = Date.now() + 30_000;
    while ((await queue.getJobState('sweep-dead-0')) !== 'completed') {
      if (Date.now() > deadline) throw new Error('the job never completed');
      await new Promise((r) => setTimeout(r, 50));
    }
    await worker.close();
    for (const [sweepId, index] of [
      ['sweep-dead', 1],
      ['sweep-dead', 2],
      ['sweep-live', 0],
      ['sweep-elsewhere', 0],
    ] as const) {
      await queue.add('run', payload(sweepId, index), { jobId: `${sweepId}-${index}` });
    }

    // The server starts again: the store closes the dead sweep, the registry collects its jobs.
    const runStore = createSqliteRunStore({ dir });
    const sweepStore = createSqliteSweepStore({ dir });
    try {
      expect((await sweepStore.getSweep('sweep-dead'))?.summary.status).toBe('failed');
      expect((await sweepStore.getSweep('sweep-live'))?.summary.status).toBe('running');
      const registry = createSweepRegistry({
        runStore,
        sweepStore,
        runnerKind: 'bullmq',
        createRunner: () => Promise.reject(new Error('no sweep is started here')),
        removeDeadJobs: (isDead) => removeDeadSweepJobs({ redisUrl: url, isDead }),
      });
      expect(await registry.started).toEqual({ removedJobs: 3 });
      const left = await queue.getRanges(
        ['wait', 'delayed', 'prioritized', 'completed', 'failed', 'active'],
        0,
        -1,
      );
      expect(left.sort()).toEqual(['sweep-elsewhere-0', 'sweep-live-0']);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await runStore.close();
      await sweepStore.close();
    }
  }, 120_000);
});
