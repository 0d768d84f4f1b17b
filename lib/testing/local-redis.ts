import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitFor } from './local-process';

/** A redis-server of a test file's own: its URL, and the data folder it runs in. */
export interface LocalRedis {
  url: string;
  /** A fresh folder under the system's temporary one: the server's, and the test's to use too. */
  dir: string;
  child: ChildProcess;
  /** Stops the server with `signal` (SIGTERM unless given) and removes its folder. */
  stop(signal?: NodeJS.Signals): void;
}

/**
 * Starts a redis-server on a free localhost port, keeping nothing on disk, in a new folder named
 * `loop-lab-<name>-…`; resolves once it accepts connections (within 20 s).
 */
export async function startLocalRedis(name: string): Promise<LocalRedis> {
  const bin = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
  if (!fs.existsSync(bin))
    throw new Error(`${bin} is missing: install the Debian package redis-server (.ci/run does)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `loop-lab-${name}-`));
  const port = await freePort();
  let out = '';
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const stop = (signal: NodeJS.Signals = 'SIGTERM'): void => {
    child.kill(signal);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(() => /Ready to accept connections/.test(out), 'redis-server to start', 20_000);
  } catch (error) {
    stop('SIGKILL');
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, dir, child, stop };
}
