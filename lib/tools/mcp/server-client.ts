/** One MCP server of a run's hub: its connection, its calls with their faults, and its recovery. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolListChangedNotificationSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@/lib/clock';
import type { EventBody, McpConfig, McpFault, McpServerConfig } from '@/lib/protocol';
import type { ToolContext, ToolResult } from '../types';
import { syncOut } from './folder-sync';
import { describe, sendCall, type Decision, type ServerLink } from './server-call';
import {
  connect,
  shippedServerCommand,
  WALL_LIMIT_MS,
  WallLimitError,
  withinWallLimit,
  type Connection,
  type ServerTarget,
} from './server-process';

/** The servers the environment allows a web run to name (LOOP_LAB_MCP_SERVERS), by name. */
export type AllowedServers = Readonly<Record<string, { command: string; args: string[] } | { url: string }>>;

/** A server's state, as its last decision left it. */
export type ServerState = 'connecting' | 'ready' | 'reconnecting' | 'gone';

/** What a run's hub is given (createMcpHub), and each of its servers' clients reads. */
export interface McpHubOptions {
  config: McpConfig;
  clock: Clock;
  emit: (body: EventBody) => void;
  iteration: () => number;
  /** The project root: the shipped server's source is run from there. */
  root: string;
  allowed: AllowedServers;
  /** The run's signal: a run aborted stops a wait for a reconnect or a hung call. */
  signal?: AbortSignal;
}

/**
 * The client of one of a run's MCP servers: it connects (a process of its own on stdio, or
 * Streamable HTTP), lists the server's tools, sends each call with the fault that hits it, and
 * decides the recovery — reconnect with a doubling wait on the run's clock (bounded attempts),
 * re-list after a reconnect or a list_changed notification, a clear error once the server is
 * gone — each decision a `mechanism_decision` event (`mcp:<server>`) with its reason and what
 * happens next.
 */
export function createServerClient(spec: McpServerConfig, options: McpHubOptions) {
  const { config, clock, emit, iteration } = options;
  /** Whether a lost server is reconnected at all (off, or no attempts: it is gone). */
  const reconnects = config.recovery.reconnect && config.recovery.maxReconnects > 0;
  const name = spec.name;
  const shipped = 'shipped' in spec;
  const dir = shipped ? mkdtempSync(path.join(tmpdir(), 'loop-lab-mcp-')) : undefined;
  let state: ServerState = 'connecting';
  let conn: Connection | undefined;
  let listed = new Map<string, McpTool>();
  let stale = false;
  let calls = 0;
  let goneWhy = '';
  /** Tools a list_changed fault took off the server's list. */
  const removed = new Set<string>();

  const decide = (decision: Decision, next: string, why: string): void => {
    emit({
      event: 'mechanism_decision',
      iteration: iteration(),
      mechanism: `mcp:${name}`,
      hook: 'beforeToolCalls',
      decision,
      next,
      why,
    });
  };

  const target = (): ServerTarget | string => {
    if ('shipped' in spec) {
      const command = shippedServerCommand({
        root: options.root,
        dir: dir!,
        http: spec.transport === 'http',
      });
      return spec.transport === 'http'
        ? { transport: 'http', serve: command }
        : { transport: 'stdio', ...command };
    }
    if ('command' in spec) return { transport: 'stdio', command: spec.command, args: spec.args };
    if ('url' in spec) return { transport: 'http', url: spec.url };
    const allowed = options.allowed[name];
    if (!allowed) return `the environment does not allow a server named "${name}" (LOOP_LAB_MCP_SERVERS)`;
    return 'url' in allowed
      ? { transport: 'http', url: allowed.url }
      : { transport: 'stdio', command: allowed.command, args: allowed.args };
  };
  const how = (): string => {
    const t = target();
    if (typeof t === 'string') return t;
    const what = shipped
      ? 'the shipped workspace server'
      : 'command' in t
        ? t.command
        : 'url' in t
          ? t.url
          : 'its server';
    return `${what} over ${t.transport === 'stdio' ? 'stdio' : 'Streamable HTTP'}`;
  };

  const open = async (): Promise<void> => {
    const t = target();
    if (typeof t === 'string') throw new Error(t);
    const opened = await clock.hold(connect(t));
    conn = opened;
    opened.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      stale = true;
    });
  };

  const list = async (): Promise<Map<string, McpTool>> => {
    const result = await clock.hold(
      withinWallLimit(conn!.client.listTools(undefined, { timeout: WALL_LIMIT_MS }), 'listing tools'),
    );
    return new Map(result.tools.filter((t) => !removed.has(t.name)).map((t) => [t.name, t]));
  };

  const relist = async (cause: string): Promise<void> => {
    const before = listed;
    listed = await list();
    stale = false;
    const gained = [...listed.keys()].filter((t) => !before.has(t));
    const lost = [...before.keys()].filter((t) => !listed.has(t));
    const change =
      gained.length + lost.length === 0
        ? 'the same tools'
        : [gained.length ? `new: ${gained.join(', ')}` : '', lost.length ? `gone: ${lost.join(', ')}` : '']
            .filter(Boolean)
            .join('; ');
    decide('relisted', 'go_on', `re-listed its tools after ${cause}: ${listed.size} (${change})`);
  };

  const closeConn = async (): Promise<void> => {
    const old = conn;
    conn = undefined;
    if (old) await clock.hold(old.close());
  };

  /** Reconnects with a doubling wait on the run's clock; false when the server is gone. */
  const recover = async (cause: string): Promise<boolean> => {
    await closeConn();
    const { maxReconnects, backoffMs } = config.recovery;
    if (!reconnects) {
      state = 'gone';
      goneWhy = `${cause}, and reconnecting is off`;
      decide('gone', 'surface', `${goneWhy}: its tools answer an error for the rest of the run`);
      return false;
    }
    state = 'reconnecting';
    let last = '';
    for (let attempt = 1; attempt <= maxReconnects; attempt++) {
      const wait = backoffMs * 2 ** (attempt - 1);
      decide(
        'reconnect',
        'connect',
        `${cause}: reconnecting in ${wait} ms (try ${attempt} of ${maxReconnects})`,
      );
      try {
        await clock.sleep(wait, options.signal);
        await open();
      } catch (error) {
        // Aborted, or the machine too slow to start a process: not an outcome the log records.
        if (options.signal?.aborted || error instanceof WallLimitError) throw error;
        last = describe(error);
        decide(
          'connect_failed',
          attempt < maxReconnects ? 'reconnect' : 'gone',
          `reconnect try ${attempt} of ${maxReconnects} failed: ${last}`,
        );
        continue;
      }
      state = 'ready';
      decide(
        'reconnected',
        config.recovery.relist ? 'relist' : 'go_on',
        `reconnected on try ${attempt} of ${maxReconnects}${config.recovery.relist ? ': re-listing its tools' : ' (re-listing is off: the old list stands)'}`,
      );
      if (config.recovery.relist) await relist('the reconnect');
      return true;
    }
    state = 'gone';
    goneWhy = `${cause}, and ${maxReconnects} reconnect tr${maxReconnects === 1 ? 'y' : 'ies'} failed (last: ${last})`;
    decide('gone', 'surface', `${goneWhy}: its tools answer an error for the rest of the run`);
    return false;
  };

  const goneText = (tool: string): string =>
    `Error: ${tool} is on the MCP server "${name}", which is gone for the rest of this run (${goneWhy}). ` +
    'Do not call its tools again: use the other tools, or finish with what you have.';
  const link: ServerLink = {
    name,
    config,
    clock,
    reconnects,
    dir,
    removed,
    conn: () => conn,
    gone: () => state === 'gone',
    decide,
    recover,
    goneText,
  };

  /** The fault that hits this call of the server (the first listed, by the server's call count). */
  const faultFor = (call: number): McpFault | undefined =>
    config.faults.find(
      (f) => (f.server === '*' || f.server === name) && call >= f.onCall && call < f.onCall + f.times,
    );

  /** Forgets the HTTP session on the server, as an expiry does: the next request naming it gets 404. */
  const expireSession = async (): Promise<boolean> => {
    const sessionId = conn?.transport.sessionId;
    if (!conn?.url || !sessionId) return false;
    await clock.hold(
      withinWallLimit(
        fetch(conn.url, {
          method: 'DELETE',
          headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        }),
        'ending the session',
      ),
    );
    return true;
  };

  async function call(tool: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    if (state === 'gone' || !conn) return { content: goneText(tool), isError: true };
    if (stale && config.recovery.relist) await relist('notifications/tools/list_changed');
    if (!listed.has(tool))
      return {
        content: `Error: the MCP server "${name}" no longer offers ${tool} (its tool list changed). It offers: ${[...listed.keys()].join(', ') || 'nothing'}.`,
        isError: true,
      };
    const number = ++calls;
    const fault = faultFor(number);
    if (fault?.kind === 'session_expired' && !(await expireSession()))
      decide(
        'fault_skipped',
        'go_on',
        `MCP fault "${fault.id}" (session_expired) applies to Streamable HTTP only; ${name} is on stdio`,
      );
    if (dir) syncOut(ctx.workspace, dir);
    const armed = fault && fault.kind !== 'session_expired' ? conn.transport.arm(fault) : undefined;
    try {
      return await sendCall(link, tool, args, ctx, fault, armed, true);
    } catch (error) {
      if (error instanceof WallLimitError)
        return {
          content: `Error: ${describe(error)}`,
          isError: true,
          hostOverloaded: `MCP server ${name}: ${describe(error)}`,
        };
      throw error;
    }
  }

  return {
    name,
    shipped,
    start: async (): Promise<void> => {
      try {
        await open();
        listed = await list();
        state = 'ready';
        decide(
          'connected',
          'go_on',
          `connected to ${how()}; it lists ${listed.size} tool${listed.size === 1 ? '' : 's'}: ${[...listed.keys()].join(', ')}`,
        );
      } catch (error) {
        await closeConn();
        if (error instanceof WallLimitError) throw error;
        state = 'gone';
        goneWhy = `it could not start: ${describe(error)}`;
        decide('gone', 'surface', `${goneWhy}; the run goes on without its tools`);
      }
    },
    listed: () => [...listed.values()],
    call,
    state: () => state,
    pids: () => conn?.pids() ?? [],
    close: async (): Promise<void> => {
      const old = conn;
      conn = undefined;
      await old?.close().catch(() => undefined);
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One server's client, as the hub holds it. */
export type ServerClient = ReturnType<typeof createServerClient>;
