import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RunnerPool, sandboxLaunch } from './runner-pool';

describe('RunnerPool', () => {
  it('hands out a fresh child for every check and queues checks past maxActive', async () => {
    const pool = new RunnerPool({ heapMb: 64, warm: 1, maxActive: 1 });
    const first = await pool.acquire();
    let secondArrived = false;
    const second = pool.acquire().then((lease) => {
      secondArrived = true;
      return lease;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(secondArrived).toBe(false);

    // A child that gets no request (its stdin closes) exits without doing anything.
    const exited = new Promise<number | null>((resolve) => first.child.on('exit', (code) => resolve(code)));
    first.child.stdin!.end();
    expect(await exited).toBe(0);
    first.release();

    const lease = await second;
    expect(lease.child.pid).not.toBe(first.child.pid);
    lease.child.kill('SIGKILL');
    lease.release();
  });
});

/** Whether this kernel lets this user take a user + network namespace, asked without the code under test. */
const kernelAllows = process.platform === 'linux' && spawnSync('unshare', ['--user', '--net', 'true'], { stdio: 'ignore' }).status === 0;
const isolatedHere = (await sandboxLaunch()).networkIsolated;

describe('sandboxLaunch', () => {
  /** Runs a node program the way sandbox children start, and returns what it printed. */
  async function runLaunched(source: string): Promise<string> {
    const launch = await sandboxLaunch();
    const child = spawn(launch.command, [...launch.prefix, '-e', source], { env: {} as NodeJS.ProcessEnv, cwd: '/', stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    await new Promise((resolve) => child.on('close', resolve));
    return out.trim();
  }

  it('starts children in a private network namespace whenever the kernel allows one', async () => {
    expect(isolatedHere).toBe(kernelAllows && process.env.LOOP_LAB_SANDBOX_NETNS !== 'off');
    expect(await runLaunched('console.log("started")')).toBe('started');
  });

  it.runIf(isolatedHere)('a child cannot reach a server listening on this machine', async () => {
    const connections: string[] = [];
    const server = createServer((socket) => {
      connections.push('connected');
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const printed = await runLaunched(
        `const s = require('node:net').connect(${port}, '127.0.0.1');` +
          `s.on('connect', () => { console.log('reached'); s.destroy(); });` +
          `s.on('error', (e) => console.log(e.code));`,
      );
      expect(printed).toBe('ENETUNREACH');
      expect(connections).toEqual([]);
    } finally {
      server.close();
    }
  });
});
