import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '@/lib/testing/local-process';

/**
 * The real processes the API's process tests start and kill: the API server
 * (scripts/api/serve-api.ts, the real route handlers and store), `npm run worker`'s entry, and a
 * redis-server on a free port. Every one started is remembered, for `killAll` after the test.
 */

const started: ChildProcess[] = [];

/** A process started here, and the base URL of its API when it serves one. */
export interface Started {
  child: ChildProcess;
  base: string;
  /** Everything it printed so far, stdout and stderr (stderr is passed on to this process's too). */
  output: () => string;
}

/** Keeps what a child prints on its piped stdout and stderr, passing stderr on. */
function keepOutput(child: ChildProcess): () => string {
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    chunks.push(chunk.toString());
    process.stderr.write(chunk);
  });
  return () => chunks.join('');
}

/** A worker started here, with every line it has printed since it took jobs (stdout and stderr). */
export interface StartedWorker extends Started {
  lines: string[];
}

/**
 * Starts scripts/api/serve-api.ts on the data folder (any free port) and waits until it listens.
 * `env` is added to this process's environment (LOOP_LAB_REDIS_URL: runs go to queue workers).
 */
export function serve(dir: string, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(
    process.execPath,
    ['--conditions=react-server', '--import', 'tsx', path.join('scripts', 'api', 'serve-api.ts'), '0'],
    {
      env: { ...process.env, LOOP_LAB_DATA_DIR: dir, LOOP_LAB_UNWATCHED_MS: '600000', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  started.push(child);
  const output = keepOutput(child);
  return waitForLine(child, /listening on (http:\/\/[\d.]+:\d+)/, 'the server').then((match) => ({
    child,
    base: `${match[1]}/api`,
    output,
  }));
}

/**
 * Starts `npm run worker`'s entry (lib/cli/worker-main.ts) on the data folder and Redis, with any
 * further `args`; waits until it takes jobs. What it prints on stderr goes on to this process's.
 */
export async function startWorker(
  dir: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<StartedWorker> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=react-server',
      '--import',
      'tsx',
      path.join('lib', 'cli', 'worker-main.ts'),
      '--workers',
      '1',
      ...args,
    ],
    {
      env: { ...process.env, LOOP_LAB_DATA_DIR: dir, LOOP_LAB_UNWATCHED_MS: '600000', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  started.push(child);
  const output = keepOutput(child);
  const lines: string[] = [];
  /** Each stream's whole lines into `lines`; a line cut between chunks waits for its end. */
  const keep = (): ((chunk: Buffer) => void) => {
    let rest = '';
    return (chunk) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop()!;
      lines.push(...parts.filter((line) => line.length > 0));
    };
  };
  child.stderr!.on('data', keep());
  await waitForLine(child, /runs on queue/, 'the worker');
  child.stdout!.on('data', keep());
  return { child, base: '', output, lines };
}

/** A redis-server of its own on a free localhost port, keeping nothing on disk. */
export async function startRedis(dir: string): Promise<Started & { url: string }> {
  const bin = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
  if (!fs.existsSync(bin))
    throw new Error(`${bin} is missing: install the Debian package redis-server (.ci/run does)`);
  const port = await freePort();
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started.push(child);
  const output = keepOutput(child);
  await waitForLine(child, /Ready to accept connections/, 'redis-server');
  return { child, base: '', url: `redis://127.0.0.1:${port}`, output };
}

/** SIGKILLs a process and waits until it has exited. */
export async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** SIGKILLs every process started here that is still running. */
export function killAll(): void {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Starts a run through the API; its id. */
export async function startRun(base: string, config: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${base}/runs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ config }),
  });
  if (response.status !== 201) throw new Error(`run refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * Resolves with the first line of the child's stdout that matches, within 180 s (a process
 * compiling its TypeScript on a machine running several builds took over 60). A child that does
 * not start in time is SIGKILLed: nothing else knows of it to stop it.
 */
function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start within 180 s`));
    }, 180_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stdout!.resume(); // what it prints later is read and dropped, so it never blocks on a full pipe
      resolve(match);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited early (${code})`)));
  });
}
