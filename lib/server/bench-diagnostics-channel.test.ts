import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBenchProbe } from '@/lib/clock/bench-probe';
import { startLocalRedis, type LocalRedis } from '@/lib/testing/local-redis';
import { answerBenchDiagnostics, askWorkers } from './bench-diagnostics-channel';

/**
 * A worker's bench diagnostics over a real redis-server: a read answers with this process's
 * figures (the watchdog lateness its probe holds), a reset empties them and answers, and once the
 * worker stops listening nobody answers.
 */
let redis: LocalRedis;
let url: string;

const globals = globalThis as typeof globalThis & {
  __loopLabBenchProbe?: unknown;
  __loopLabBenchDiagnostics?: { histogram: { disable(): void } };
  __loopLabBareTimer?: Worker;
};
const hadProbe = globals.__loopLabBenchProbe !== undefined;

beforeAll(async () => {
  redis = await startLocalRedis('bench-channel');
  url = redis.url;
}, 60_000);

afterAll(async () => {
  // The process as it was: the diagnostics' histogram, bare timer thread and probe are this file's.
  globals.__loopLabBenchDiagnostics?.histogram.disable();
  delete globals.__loopLabBenchDiagnostics;
  await globals.__loopLabBareTimer?.terminate();
  delete globals.__loopLabBareTimer;
  if (!hadProbe) delete globals.__loopLabBenchProbe;
  redis?.stop('SIGKILL');
});

describe("a queue worker's bench diagnostics, asked for on Redis", () => {
  it('resets and reads the figures of the process that answers, and nobody answers once it stops', async () => {
    const stop = await answerBenchDiagnostics({ redisUrl: url });
    const probe = enableBenchProbe();
    expect(await askWorkers(url, 'reset')).toEqual([{ pid: process.pid }]);
    probe.watchdogLateWallMs.push(12.5, 40);

    const read = await askWorkers(url, 'read');
    expect(read).toHaveLength(1);
    expect(read[0]!.pid).toBe(process.pid);
    expect(read[0]!.diagnostics?.watchdogLateWallMs).toEqual([12.5, 40]);
    expect(read[0]!.diagnostics?.loopDelay.samples).toBeGreaterThanOrEqual(0);

    await askWorkers(url, 'reset');
    const after = await askWorkers(url, 'read');
    expect(after[0]!.diagnostics?.watchdogLateWallMs).toEqual([]);

    await stop();
    expect(await askWorkers(url, 'read')).toEqual([]);
  });
});
