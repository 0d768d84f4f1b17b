import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@/lib/testing/local-process';

export { freePort };

/** A `next start` of the production build on a free localhost port, with a data folder of its own. */
export interface NextServer {
  base: string;
  dataDir: string;
  /** The server process's id (its main thread's too, on Linux). */
  pid: number | undefined;
  /** What the server has written to stderr so far. */
  stderr(): string;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts `next start` for a bench part and waits until it answers. `env` adjusts the server's
 * environment (the data folder is already set in it); `nodeArgs` go to node before next's own.
 */
export async function startNextServer(options: {
  root: string;
  prefix: string;
  env?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
  nodeArgs?: readonly string[];
  /** How long it may take to answer before it is stopped and this fails (default 60 s). */
  startMs?: number;
}): Promise<NextServer> {
  const { root } = options;
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), options.prefix));
  const base: NodeJS.ProcessEnv = { ...process.env, LOOP_LAB_DATA_DIR: dataDir, NODE_ENV: 'production' };
  const server = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'),
      'start',
      '-H',
      '127.0.0.1',
      '-p',
      String(port),
    ],
    { cwd: root, env: options.env ? options.env(base) : base, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = async (): Promise<void> => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${url}/api/scenarios`, server, () => stderr, options.startMs ?? 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base: url, dataDir, pid: server.pid, stderr: () => stderr, stop };
}

async function waitForServer(
  url: string,
  server: ChildProcess,
  log: () => string,
  ms: number,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`next start exited (${server.exitCode}): ${log().slice(-500)}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start did not answer ${url} within ${ms / 1000} s: ${log().slice(-500)}`);
}
