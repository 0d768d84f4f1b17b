import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * A loop that spins until it is killed, its parent goes away, or `maxSeconds` pass — so a
 * test that dies mid-way never leaves CPU burners behind on the machine.
 */
function loopSource(maxSeconds: number): string {
  return [
    'const parent = process.ppid;',
    `const end = Date.now() + ${Math.round(maxSeconds * 1000)};`,
    'for (let i = 0; ; i++) {',
    '  if ((i & 0xfffff) === 0 && (process.ppid !== parent || Date.now() > end)) process.exit(0);',
    '}',
  ].join('\n');
}

export interface BusyLoops {
  /** How many loops spin. */
  readonly count: number;
  /** Kills every loop and waits for each to be gone. */
  stop(): Promise<void>;
}

/**
 * Starts `perCore` busy loops for each core, at normal priority: the machine a classroom, a
 * sweep or a CI build makes, on which nothing a run records may change.
 */
export function startBusyLoops(options: { perCore?: number; maxSeconds?: number } = {}): BusyLoops {
  const count = (options.perCore ?? 3) * availableParallelism();
  const source = loopSource(options.maxSeconds ?? 900);
  const loops: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', source], { stdio: 'ignore' }),
  );
  const killAll = (): void => {
    for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
  };
  process.once('exit', killAll);
  return {
    count,
    async stop() {
      const gone = loops.map((loop) =>
        loop.exitCode !== null || loop.signalCode !== null
          ? Promise.resolve()
          : new Promise<void>((resolve) => loop.once('exit', () => resolve())),
      );
      killAll();
      process.off('exit', killAll);
      await Promise.all(gone);
    },
  };
}
