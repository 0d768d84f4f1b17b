import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CHECK_NICE, RunnerPool, sandboxLaunch } from './runner-pool';

describe('RunnerPool', () => {
  it('shares its slots among runs: a run that filled every slot gives the next free ones to the run that waits', async () => {
    const pool = new RunnerPool({ heapMb: 64, warm: 0, maxActive: 2 });
    const granted: string[] = [];
    const leases: Array<{ run: string; lease: NonNullable<Awaited<ReturnType<RunnerPool['acquire']>>> }> = [];
    const ask = (run: string) =>
      pool.acquire(run).then((lease) => {
        granted.push(run);
        leases.push({ run, lease: lease! });
      });
    // Run A loops its check: two running, three more waiting; then run B asks twice.
    await Promise.all([ask('A'), ask('A')]);
    const pending = [ask('A'), ask('A'), ask('A')];
    await new Promise((resolve) => setTimeout(resolve, 10));
    pending.push(ask('B'), ask('B'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pool.state()).toEqual({ active: 2, waiting: 5 });

    // Checks end in the order they started; each end frees a slot for the next grant.
    const heldWhileOthersWait: number[] = [];
    for (let done = 0; done < 7; done++) {
      const { lease } = leases[done]!;
      lease.child.kill('SIGKILL');
      lease.release();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const running = leases.slice(done + 1).map((l) => l.run);
      if (granted.length < 7) heldWhileOthersWait.push(running.filter((r) => r === 'A').length);
    }
    await Promise.all(pending);
    // FIFO would have run all of A's five checks before B's first.
    expect(granted).toEqual(['A', 'A', 'B', 'A', 'B', 'A', 'A']);
    // While B had a check waiting, A never held more than its share (one of two slots).
    expect(Math.max(...heldWhileOthersWait.slice(1, 3))).toBe(1);
  });

  it.runIf(process.platform === 'linux')(
    "starts children from its launcher, not from this process, at the checks' lower CPU priority",
    async () => {
      const pool = new RunnerPool({ heapMb: 64, warm: 0, maxActive: 1 });
      const { child, release } = (await pool.acquire('run'))!;
      if (child.pid === undefined)
        await new Promise((resolve) => child.once('spawn', () => resolve(undefined)));
      // /proc/<pid>/stat: the fields after the command's closing parenthesis; ppid is the 2nd, nice the 17th.
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      expect(Number(fields[1])).not.toBe(process.pid);
      expect(Number(fields[16])).toBe(CHECK_NICE);
      child.kill('SIGKILL');
      release();
    },
  );

  it('hands out a fresh child for every check and queues checks past maxActive', async () => {
    const pool = new RunnerPool({ heapMb: 64, warm: 1, maxActive: 1 });
    const first = (await pool.acquire())!;
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

    const lease = (await second)!;
    expect(lease.child.pid).not.toBe(first.child.pid);
    lease.child.kill('SIGKILL');
    lease.release();
  });
});

/** Whether this kernel lets this user take a user + network namespace, asked without the code under test. */
const kernelAllows =
  process.platform === 'linux' &&
  spawnSync('unshare', ['--user', '--net', 'true'], { stdio: 'ignore' }).status === 0;
const isolatedHere = (await sandboxLaunch()).networkIsolated;

describe('sandboxLaunch', () => {
  /** Runs a node program the way sandbox children start, and returns what it printed. */
  async function runLaunched(source: string): Promise<string> {
    const launch = await sandboxLaunch();
    const child = spawn(launch.command, [...launch.prefix, '-e', source], {
      env: {} as NodeJS.ProcessEnv,
      cwd: '/',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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
