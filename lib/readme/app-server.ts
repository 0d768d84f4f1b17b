import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The app, started for the pictures and stopped after them: `next dev` (the code as it is, with
 * no build: the first page compiles in well under a minute, where a production build takes 5–14
 * minutes on two cores) or, with `mode: 'start'`, `next start` on the production build already
 * in .next. It gets a fresh data folder, so the pictures never show a developer's runs, and its
 * own process group, so stopping it stops every process it started.
 */
export interface AppServer {
  base: string;
  stop(): Promise<void>;
}

export async function startApp({
  root,
  mode,
  port,
}: {
  root: string;
  mode: 'dev' | 'start';
  port?: number;
}): Promise<AppServer> {
  if (mode === 'start' && !fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    throw new Error(
      'no production build in .next (run `npx next build`, or leave out --start to use `next dev`)',
    );
  }
  const listen = port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-screenshots-'));
  // next start needs NODE_ENV=production; next dev sets its own (an inherited one only makes it warn).
  const { NODE_ENV: _inherited, ...inherited } = process.env;
  const env: Record<string, string | undefined> = {
    ...inherited,
    LOOP_LAB_DATA_DIR: dataDir,
    NEXT_TELEMETRY_DISABLED: '1',
    ...(mode === 'start' ? { NODE_ENV: 'production' } : {}),
  };
  const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const child: ChildProcess = spawn(process.execPath, [next, mode, '-H', '127.0.0.1', '-p', String(listen)], {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      signalGroup(child.pid, 'SIGTERM');
      const late = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
      if (late) signalGroup(child.pid, 'SIGKILL');
      await exited;
    }
    // next dev's own workers share the group; give them the same end if any outlived the leader.
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const base = `http://127.0.0.1:${listen}`;
  try {
    // GET /api/runs answers from the same route file the runs are started through: one compile, not two.
    await waitForApp(
      `${base}/api/runs?limit=1`,
      () => child.exitCode,
      () => output,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop };
}

/** Signals every process of the group the server leads; a group already gone is not an error. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

async function waitForApp(url: string, exitCode: () => number | null, output: () => string): Promise<void> {
  // `next dev` compiles the route on its first request: on a loaded two-core machine, tens of seconds.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (exitCode() !== null) throw new Error(`the app exited (${exitCode()}):\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  throw new Error(`the app did not answer ${url} within 180 s:\n${output()}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
