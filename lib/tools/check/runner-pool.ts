import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DEFAULT_SANDBOX_LIMITS } from './sandbox-limits';
import { SANDBOX_SOURCE } from './sandbox-source';
import { serverEnv } from '@/lib/config/server-env';

/** Node 22.13+ calls the permission model `--permission`; Node 20 `--experimental-permission`. */
function permissionFlag(): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13) ? '--permission' : '--experimental-permission';
}

/** How a sandbox child is started: straight away, or inside its own network namespace. */
export interface SandboxLaunch {
  /** The program to run (node itself, or util-linux `unshare`). */
  command: string;
  /** Arguments before node's own flags (for unshare: its flags, then node's path). */
  prefix: string[];
  /** True when the child has no network at all: a private namespace with only a loopback that is down. */
  networkIsolated: boolean;
}

let launch: Promise<SandboxLaunch> | undefined;

/**
 * Decides once per process how to start sandbox children. Node 20's permission model
 * guards files, child processes and workers, not sockets; where the kernel lets an
 * unprivileged user take a new user and network namespace (`unshare --user --net`, Linux
 * with user namespaces on), every child runs in one, so the model-written code in it has no
 * network to reach — not the vendors, not this server, not the internet. Elsewhere it runs
 * without, and the README says so. `LOOP_LAB_SANDBOX_NETNS=off` forces the latter.
 */
export function sandboxLaunch(): Promise<SandboxLaunch> {
  launch ??= probeNetworkNamespace().then((unshare) =>
    unshare
      ? { command: unshare, prefix: ['--user', '--net', process.execPath], networkIsolated: true }
      : { command: process.execPath, prefix: [], networkIsolated: false },
  );
  return launch;
}

/** The path of `unshare` when starting node under it with a private network works here. */
function probeNetworkNamespace(): Promise<string | undefined> {
  if (process.platform !== 'linux' || !serverEnv().sandboxNetns) return Promise.resolve(undefined);
  const unshare = ['/usr/bin/unshare', '/bin/unshare'].find((path) => existsSync(path));
  if (!unshare) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const child = spawn(unshare, ['--user', '--net', process.execPath, '-e', ''], { env: {} as NodeJS.ProcessEnv, cwd: '/', stdio: 'ignore' });
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? unshare : undefined));
  });
}

/**
 * What the child's own realm (outside the check's vm context) is held to: no code built from
 * strings; builtins frozen (`--frozen-intrinsics`: workspace code that reached this realm could
 * change none of what the report is built with); and vm's `importModuleDynamically` callback
 * (`--experimental-vm-modules`), so the sandbox answers `import()` with an error of the vm
 * context's realm instead of Node's own, which would be an object of this realm.
 */
export const SANDBOX_REALM_FLAGS = ['--disallow-code-generation-from-strings', '--frozen-intrinsics', '--experimental-vm-modules'] as const;

/**
 * Spawns one sandbox child: an empty environment (the server's API keys are in its
 * environment), the permission model with nothing allowed (no file system, no child
 * processes, no workers), the realm flags above, a heap cap, the program given with `-e` so
 * it reads no file, and no network where `launch` says so. stdout is discarded; stderr is kept only to tell a heap-limit abort from a crash; fd 3
 * is the report channel.
 */
export function spawnRunner(options: { heapMb: number; launch: SandboxLaunch }): ChildProcess {
  const node = [permissionFlag(), ...SANDBOX_REALM_FLAGS, '--no-warnings', `--max-old-space-size=${options.heapMb}`, '-e', SANDBOX_SOURCE];
  return spawn(options.launch.command, [...options.launch.prefix, ...node], {
    env: {} as NodeJS.ProcessEnv,
    cwd: '/',
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
}

function setRef(child: ChildProcess, on: boolean): void {
  for (const stream of [child, ...child.stdio]) {
    const handle = stream as { ref?: () => void; unref?: () => void } | null;
    if (on) handle?.ref?.();
    else handle?.unref?.();
  }
}

/**
 * A few children started ahead of need, each serving ONE check and then exiting, so a check
 * does not wait for Node to boot (the figure is in `npm run bench`). Waiting children are
 * unref'd: they never keep a process alive, and they exit when their stdin closes. At most
 * `maxActive` checks run at once; the rest queue, so a burst of runs cannot fork-bomb the
 * machine.
 */
export class RunnerPool {
  private readonly idle: ChildProcess[] = [];
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly options: { heapMb: number; warm: number; maxActive: number }) {}

  /** A fresh child for one check; call `release` when it has exited. */
  async acquire(): Promise<{ child: ChildProcess; release: () => void }> {
    const launch = await sandboxLaunch();
    if (this.active >= this.options.maxActive) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    let child = this.idle.shift();
    while (child && (child.exitCode !== null || child.signalCode !== null)) child = this.idle.shift();
    child ??= spawnRunner({ heapMb: this.options.heapMb, launch });
    setRef(child, true);
    this.refill(launch);
    let released = false;
    return {
      child,
      release: () => {
        if (released) return;
        released = true;
        this.active--;
        this.queue.shift()?.();
      },
    };
  }

  private refill(launch: SandboxLaunch): void {
    while (this.idle.length < this.options.warm) {
      const child = spawnRunner({ heapMb: this.options.heapMb, launch });
      child.on('error', () => undefined);
      setRef(child, false);
      this.idle.push(child);
    }
  }
}

/** Kept on globalThis so a dev server's module reloads share one pool instead of leaking warm children. */
const POOL_KEY = Symbol.for('loop-lab.check-runner-pool');

/** The process-wide pool (default heap cap): two warm children, as many concurrent checks as cores (at least 2). */
export function sharedRunnerPool(): RunnerPool {
  const holder = globalThis as { [POOL_KEY]?: RunnerPool };
  holder[POOL_KEY] ??= new RunnerPool({ heapMb: DEFAULT_SANDBOX_LIMITS.heapMb, warm: 2, maxActive: Math.max(2, availableParallelism()) });
  return holder[POOL_KEY];
}
