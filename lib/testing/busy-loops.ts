import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';

/** Processes that only burn CPU, started to make this machine busy, and stopped. */
export interface BusyLoops {
  /** How many are running. */
  readonly count: number;
  /** Kills every one and waits until each has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `perCore` × this machine's cores child processes that each spin `while (true) {}`,
 * so whatever runs beside them gets a fraction of a core: the load a classroom, a sweep or a
 * build puts on a laptop. They are killed by `stop()`, and by this process's exit should it end
 * first.
 */
export function startBusyLoops(options: { perCore?: number } = {}): BusyLoops {
  const count = (options.perCore ?? 3) * os.availableParallelism();
  const children: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'while (true) {}'], { stdio: 'ignore' }));
  const killAll = (): void => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  return {
    count,
    async stop() {
      const exited = children.map((child) =>
        child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve())),
      );
      killAll();
      await Promise.all(exited);
      process.removeListener('exit', killAll);
    },
  };
}
