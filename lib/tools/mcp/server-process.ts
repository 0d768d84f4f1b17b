import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FaultyTransport } from './faulty-transport';

/** Where a server is reached: a command on stdio, or a URL (with the process that serves it, when the run started it). */
export type ServerTarget =
  | { transport: 'stdio'; command: string; args: string[]; cwd?: string }
  | { transport: 'http'; url: string }
  | { transport: 'http'; serve: { command: string; args: string[]; cwd?: string } };

/**
 * The most wall time a server may take to start, answer initialize or a listing, or answer a call
 * (a bound so no run waits forever on a process; a server that needs more is the machine's failure,
 * not the run's: see the hub).
 */
export const WALL_LIMIT_MS = 45_000;

/** One live connection: the SDK's client over the faulty transport, and how to end it. */
export interface Connection {
  client: Client;
  transport: FaultyTransport;
  /** The HTTP session's URL (Streamable HTTP only). */
  url?: string;
  /** The processes this connection started and still holds (the stdio server, or the HTTP server). */
  pids(): number[];
  /** Ends the connection and every process it started; resolves once they exited. */
  close(): Promise<void>;
}

/** Resolves when the child has exited (at once when it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Kills a child and waits until it is gone. */
async function killChild(child: ChildProcess): Promise<string> {
  const gone = exited(child);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await gone;
  return `process exited (${child.signalCode ?? `code ${child.exitCode}`})`;
}

/** Starts the HTTP server process and reads the URL it prints (`listening <url>`), within the wall limit. */
async function startHttpServer(serve: { command: string; args: string[]; cwd?: string }): Promise<{
  child: ChildProcess;
  url: string;
}> {
  const child = spawn(serve.command, serve.args, {
    cwd: serve.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    // The SDK's short list of safe variables (PATH, HOME, …): no key of the run's reaches a server.
    env: getDefaultEnvironment() as NodeJS.ProcessEnv,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-2000)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`the server did not start within ${WALL_LIMIT_MS} ms`)),
        WALL_LIMIT_MS,
      );
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\S+)\n/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(
          new Error(`the server exited (code ${code}) before it listened: ${stderr.trim().slice(-500)}`),
        );
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return { child, url };
  } catch (error) {
    await killChild(child);
    throw error;
  }
}

/** Races `work` with the wall limit: past it, the error says which step took too long. */
export async function withinWallLimit<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new WallLimitError(`${what} took more than ${WALL_LIMIT_MS} ms of wall time`)),
      WALL_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** A real step that passed the wall limit: the machine, not the server's behaviour the run records. */
export class WallLimitError extends Error {
  override readonly name = 'WallLimitError';
}

/** Connects to a server: starts its process when the target has one, then initialize (the SDK's handshake). */
export async function connect(target: ServerTarget): Promise<Connection> {
  let child: ChildProcess | undefined;
  let inner: Transport;
  let url: string | undefined;
  let stdio: StdioClientTransport | undefined;
  if (target.transport === 'stdio') {
    stdio = new StdioClientTransport({
      command: target.command,
      args: target.args,
      // Nothing reads a server's stderr, so none is kept (a full pipe would stall the server).
      stderr: 'ignore',
      ...(target.cwd ? { cwd: target.cwd } : {}),
      // No env: the SDK passes its short list of safe variables (PATH, HOME, …), no key of the run's.
    });
    inner = stdio;
  } else {
    if ('serve' in target) {
      const started = await startHttpServer(target.serve);
      child = started.child;
      url = started.url;
    } else url = target.url;
    inner = new StreamableHTTPClientTransport(new URL(url), {
      reconnectionOptions: {
        maxReconnectionDelay: 0,
        initialReconnectionDelay: 0,
        reconnectionDelayGrowFactor: 1,
        maxRetries: 0,
      },
    });
  }
  const pids = (): number[] => {
    const own = child && child.exitCode === null && child.signalCode === null ? [child.pid!] : [];
    const piped = stdio?.pid;
    return piped ? [...own, piped] : own;
  };
  const kill = async (): Promise<string> => {
    if (child) return killChild(child);
    const pid = stdio?.pid;
    if (pid) {
      const gone = new Promise<void>((resolve) => {
        const previous = transport.onclose;
        transport.onclose = () => {
          previous?.();
          resolve();
        };
      });
      process.kill(pid, 'SIGKILL');
      await gone;
      return 'process exited (SIGKILL)';
    }
    // A server one does not own: the connection is dropped instead.
    await inner.close();
    return 'connection dropped';
  };
  const transport = new FaultyTransport(inner, kill);
  const client = new Client({ name: 'loop-lab', version: '1.0.0' }, { capabilities: {} });
  const close = async (): Promise<void> => {
    const pid = stdio?.pid;
    await client.close().catch(() => undefined);
    if (pid) await waitGone(pid);
    if (child) await killChild(child);
  };
  try {
    await withinWallLimit(client.connect(transport, { timeout: WALL_LIMIT_MS }), 'connecting');
  } catch (error) {
    await close();
    throw error;
  }
  return { client, transport, ...(url ? { url } : {}), pids, close };
}

/** Waits until a process id is gone (the SDK's close ends its stdio child: SIGTERM, then SIGKILL). */
async function waitGone(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone between the check and the kill
  }
}

/** The project's root, where the shipped server's source and tsx are (LOOP_LAB_ROOT, or the working directory). */
export function shippedServerCommand(options: { root: string; dir: string; http: boolean }): {
  command: string;
  args: string[];
  cwd: string;
} {
  const script = path.join(options.root, 'lib/tools/mcp/workspace-server-main.ts');
  return {
    command: process.execPath,
    args: ['--import', 'tsx', script, '--root', options.dir, ...(options.http ? ['--http'] : [])],
    cwd: options.root,
  };
}
