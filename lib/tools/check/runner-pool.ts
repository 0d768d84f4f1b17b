import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { DEFAULT_SANDBOX_LIMITS } from './sandbox-limits';
import { SANDBOX_SOURCE } from './sandbox-source';

/** Node 22.13+ calls the permission model `--permission`; Node 20 `--experimental-permission`. */
function permissionFlag(): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13) ? '--permission' : '--experimental-permission';
}

/**
 * Spawns one sandbox child: an empty environment (the server's API keys are in its
 * environment), the permission model with nothing allowed (no file system, no child
 * processes, no workers), a heap cap, and the program given with `-e` so it reads no file.
 * stdout is discarded; stderr is kept only to tell a heap-limit abort from a crash; fd 3 is
 * the report channel.
 */
export function spawnRunner(options: { heapMb: number }): ChildProcess {
  const args = [permissionFlag(), '--no-warnings', `--max-old-space-size=${options.heapMb}`, '-e', SANDBOX_SOURCE];
  return spawn(process.execPath, args, { env: {} as NodeJS.ProcessEnv, cwd: '/', stdio: ['pipe', 'ignore', 'pipe', 'pipe'], windowsHide: true });
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

  constructor(
    private readonly options: { heapMb: number; warm: number; maxActive: number },
  ) {}

  /** A fresh child for one check; call `release` when it has exited. */
  async acquire(): Promise<{ child: ChildProcess; release: () => void }> {
    if (this.active >= this.options.maxActive) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    let child = this.idle.shift();
    while (child && (child.exitCode !== null || child.signalCode !== null)) child = this.idle.shift();
    child ??= spawnRunner(this.options);
    setRef(child, true);
    this.refill();
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

  private refill(): void {
    while (this.idle.length < this.options.warm) {
      const child = spawnRunner(this.options);
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
