import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { CheckLauncher, type RemoteChild, type SandboxChild } from './check-launcher';
import { FairSlots, type SlotShare } from './fair-slots';
import { DEFAULT_SANDBOX_LIMITS, MAX_REPORT_BYTES, MAX_STDERR_CHARS } from './sandbox-limits';
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
    const child = spawn(unshare, ['--user', '--net', process.execPath, '-e', ''], {
      env: {} as NodeJS.ProcessEnv,
      cwd: '/',
      stdio: 'ignore',
    });
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
export const SANDBOX_REALM_FLAGS = [
  '--disallow-code-generation-from-strings',
  '--frozen-intrinsics',
  '--experimental-vm-modules',
] as const;

/**
 * Spawns one sandbox child: an empty environment (the server's API keys are in its
 * environment), the permission model with nothing allowed (no file system, no child
 * processes, no workers), the realm flags above, a heap cap, the program given with `-e` so
 * it reads no file, and no network where `launch` says so. stdout is discarded; stderr is kept only to tell a heap-limit abort from a crash; fd 3
 * is the report channel.
 */
export function spawnRunner(options: { heapMb: number; launch: SandboxLaunch }): ChildProcess {
  const { command, args } = runnerCommand(options);
  const child = spawn(command, args, {
    env: {} as NodeJS.ProcessEnv,
    cwd: '/',
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  lowerPriority(child);
  return child;
}

/** The command line of a sandbox child (see `spawnRunner`). */
function runnerCommand(options: { heapMb: number; launch: SandboxLaunch }): {
  command: string;
  args: string[];
} {
  const node = [
    permissionFlag(),
    ...SANDBOX_REALM_FLAGS,
    '--no-warnings',
    `--max-old-space-size=${options.heapMb}`,
    '-e',
    SANDBOX_SOURCE,
  ];
  return { command: options.launch.command, args: [...options.launch.prefix, ...node] };
}

/**
 * The check children's CPU priority (nice 10: a tenth of the weight of a normal process), so a
 * check busy-looping or allocating on every core takes mostly what the server's own timers and
 * streams leave over. Not 19: on a machine busy with other work, a check at 19 barely runs (under
 * the wall-clock limit checks had then, it ended there instead of with its own report; now it
 * would reach the wall-clock backstop; measured in `npm run bench`,
 * docs/benchmarks.md). (`unshare` execs node in the same process, so the priority holds for the
 * check itself.) Lowering a child's priority needs no privilege; where it fails, the child runs as it is.
 */
export const CHECK_NICE = 10;

function lowerPriority(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    setPriority(child.pid, CHECK_NICE);
  } catch {
    // A child that already exited, or a platform without priorities: nothing to lower.
  }
}

function setRef(child: SandboxChild, on: boolean): void {
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
 * `maxActive` checks run at once, shared fairly among runs (`FairSlots`: a run never holds
 * more than its share while another run waits); the rest queue, so a burst of runs cannot
 * fork-bomb the machine and one run's checks cannot starve another's.
 */
export class RunnerPool {
  private readonly idle: RemoteChild[] = [];
  private readonly slots: FairSlots;
  private readonly launcher = new CheckLauncher();

  constructor(private readonly options: { heapMb: number; warm: number; maxActive: number }) {
    this.slots = new FairSlots(options.maxActive);
  }

  /**
   * A fresh child for one check of the run `share` (a check without one is a run of its own);
   * call `release` when it has exited. Undefined when `signal` aborts while the check waits.
   */
  async acquire(
    share?: SlotShare,
    signal?: AbortSignal,
  ): Promise<{ child: SandboxChild; release: () => void } | undefined> {
    const launch = await sandboxLaunch();
    const release = await this.slots.acquire(share ?? Symbol('check'), signal);
    if (!release) return undefined;
    let child = this.idle.shift();
    while (child && (child.exitCode !== null || child.signalCode !== null)) child = this.idle.shift();
    child ??= this.spawn(launch);
    setRef(child, true);
    this.refill(launch);
    return { child, release };
  }

  /** Slots in use and checks waiting. */
  state(): { active: number; waiting: number } {
    return this.slots.state();
  }

  /** A child started by the launcher process, so this process's event loop never waits for the fork. */
  private spawn(launch: SandboxLaunch): RemoteChild {
    const { command, args } = runnerCommand({ heapMb: this.options.heapMb, launch });
    return this.launcher.spawn({
      command,
      args,
      nice: CHECK_NICE,
      maxReportBytes: MAX_REPORT_BYTES,
      maxStderrChars: MAX_STDERR_CHARS,
    });
  }

  private refill(launch: SandboxLaunch): void {
    while (this.idle.length < this.options.warm) {
      const child = this.spawn(launch);
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
  holder[POOL_KEY] ??= new RunnerPool({
    heapMb: DEFAULT_SANDBOX_LIMITS.heapMb,
    warm: 2,
    maxActive: Math.max(2, availableParallelism()),
  });
  return holder[POOL_KEY];
}
