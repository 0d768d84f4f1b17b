import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBenchProbe } from '@/lib/clock/bench-probe';
import { freePort, waitFor } from '@/lib/testing/local-process';
import { answerBenchDiagnostics, askWorkers } from './bench-diagnostics-channel';

/**
 * A worker's bench diagnostics over a real redis-server: a read answers with this process's
 * figures (the watchdog lateness its probe holds), a reset empties them and answers, and once the
 * worker stops listening nobody answers.
 */
const REDIS = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
let dir: string;
let redis: ChildProcess;
let url: string;

const globals = globalThis as typeof globalThis & {
  __loopLabBenchProbe?: unknown;
  __loopLabBenchDiagnostics?: { histogram: { disable(): void } };
  __loopLabBareTimer?: Worker;
};
const hadProbe = globals.__loopLabBenchProbe !== undefined;

beforeAll(async () => {
  if (!fs.existsSync(REDIS))
    throw new Error(`${REDIS} is missing: install the Debian package redis-server (.ci/run does)`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-bench-channel-'));
  const port = await freePort();
  let out = '';
  redis = spawn(
    REDIS,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  redis.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => /Ready to accept connections/.test(out), 'redis-server to start', 20_000);
  url = `redis://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  // The process as it was: the diagnostics' histogram, bare timer thread and probe are this file's.
  globals.__loopLabBenchDiagnostics?.histogram.disable();
  delete globals.__loopLabBenchDiagnostics;
  await globals.__loopLabBareTimer?.terminate();
  delete globals.__loopLabBareTimer;
  if (!hadProbe) delete globals.__loopLabBenchProbe;
  redis?.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
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
