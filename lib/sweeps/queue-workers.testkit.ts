import { spawn, type ChildProcess } from 'node:child_process';
import { waitFor } from '@/lib/testing/local-process';

/**
 * Starts two `npm run worker` processes (lib/sweeps/queue-worker-main.ts, one thread each) on the
 * Redis at `url`, adding each to `workers` as it is spawned (so a test's afterAll stops those
 * started even when a later one fails), and resolves once each takes jobs. Their environment is
 * only PATH, HOME, NODE_ENV=test, LOOP_LAB_REDIS_URL and `env`.
 */
export async function startQueueWorkers(
  workers: ChildProcess[],
  url: string,
  env: Record<string, string> = {},
): Promise<void> {
  for (let i = 0; i < 2; i += 1) {
    let out = '';
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'lib/sweeps/queue-worker-main.ts', '--workers', '1'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NODE_ENV: 'test',
          LOOP_LAB_REDIS_URL: url,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    workers.push(child);
    await waitFor(() => /worker: 1 thread on queue/.test(out), `worker ${i + 1} to connect`);
  }
}

/** SIGTERMs each worker still running and waits until every one has exited. */
export async function stopQueueWorkers(workers: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) => new Promise((r) => (w.exitCode !== null ? r(null) : (w.once('exit', r), w.kill('SIGTERM')))),
    ),
  );
}
