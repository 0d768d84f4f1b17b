import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Clock } from '@/lib/clock';
import type { EventBody, McpConfig, McpFault, McpServerConfig } from '@/lib/protocol';
import type { AnyTool } from '../registry';
import type { ToolContext, ToolResult } from '../types';
import { syncIn, syncOut } from './folder-sync';
import type { FaultEffect } from './faulty-transport';
import {
  connect,
  shippedServerCommand,
  WALL_LIMIT_MS,
  WallLimitError,
  withinWallLimit,
  type Connection,
  type ServerTarget,
} from './server-process';
import { WORKSPACE_SERVER_TOOLS } from './workspace-server';

/** The servers the environment allows a web run to name (LOOP_LAB_MCP_SERVERS), by name. */
export type AllowedServers = Readonly<Record<string, { command: string; args: string[] } | { url: string }>>;

/** A server's state, as its last decision left it. */
export type ServerState = 'connecting' | 'ready' | 'reconnecting' | 'gone';

export interface McpHub {
  /** The tools every server listed when the run started, as the executor runs them. */
  readonly tools: readonly AnyTool[];
  /** Connects every server and lists its tools (a server that cannot start is gone, with its reason). */
  start(): Promise<void>;
  /** Each server's state now. */
  states(): Record<string, ServerState>;
  /** The processes the servers run in now (the tests check none is left). */
  pids(): number[];
  /** Ends every connection and process, and removes the shipped server's folder. Never rejects. */
  close(): Promise<void>;
}

/** The decision words the hub writes (a `mechanism_decision` event's `decision`), each with what happens next. */
type Decision =
  | 'connected'
  | 'connect_failed'
  | 'crashed'
  | 'lost'
  | 'malformed'
  | 'session_expired'
  | 'hung'
  | 'is_error'
  | 'list_changed'
  | 'reconnect'
  | 'reconnected'
  | 'relisted'
  | 'gone'
  | 'fault_skipped';

/** The description of a tool whose input the server gave as JSON Schema: validated against it here too. */
function inputOf(tool: McpTool): z.ZodType {
  try {
    return z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

/** The text of a tools/call result: its text parts, and a word for each part of another kind. */
function resultText(result: object): string {
  const content = 'content' in result ? result.content : undefined;
  const parts = Array.isArray(content) ? (content as { type: string; text?: string }[]) : [];
  return parts.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type} content]`)).join('\n');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}

function isSessionGone(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

/**
 * A run's MCP servers: each one connected through the official SDK's client (a process of its own
 * on stdio, or Streamable HTTP), its tools offered to the model as the run's tools, its transport
 * faults applied (lib/protocol/mcp.ts) and its recovery decided here: reconnect with a doubling
 * wait on the run's clock (bounded attempts), re-listing its tools after a reconnect or a
 * list_changed notification, and a clear error to the model once it is gone. Every decision is a
 * `mechanism_decision` event (`mcp:<server>`) with its reason and what happens next. Real work
 * (a process starting, a call in flight) holds the run's clock, and is bounded in wall time
 * (WALL_LIMIT_MS): past that the call ends the run as the machine's failure (`hostOverloaded`),
 * never as a recorded outcome of the server.
 */
export function createMcpHub(options: {
  config: McpConfig;
  clock: Clock;
  emit: (body: EventBody) => void;
  iteration: () => number;
  /** The project root: the shipped server's source is run from there. */
  root: string;
  allowed: AllowedServers;
  /** The run's signal: a run aborted stops a wait for a reconnect or a hung call. */
  signal?: AbortSignal;
}): McpHub {
  const { config, clock, emit, iteration } = options;
  /** Whether a lost server is reconnected at all (off, or no attempts: it is gone). */
  const reconnects = config.recovery.reconnect && config.recovery.maxReconnects > 0;
  const servers = config.servers.map((server) => createServer(server));
  const tools: AnyTool[] = [];

  function createServer(spec: McpServerConfig) {
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
        return await send(tool, args, ctx, fault, armed, true);
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

    async function send(
      tool: string,
      args: unknown,
      ctx: ToolContext,
      fault: McpFault | undefined,
      armed: Promise<FaultEffect> | undefined,
      mayRetry: boolean,
    ): Promise<ToolResult> {
      const controller = new AbortController();
      const request = conn!.client.callTool(
        { name: tool, arguments: (args ?? {}) as Record<string, unknown> },
        undefined,
        {
          signal: controller.signal,
          timeout: WALL_LIMIT_MS,
        },
      );
      request.catch(() => undefined);
      if (fault?.kind === 'hang') {
        const timeout = config.recovery.callTimeoutMs;
        try {
          await clock.sleep(timeout, ctx.signal);
        } finally {
          controller.abort(new Error('timed out'));
        }
        decide(
          'hung',
          'surface',
          `${tool} did not answer within ${timeout} ms of run time (MCP fault "${fault.id}"): the call is cancelled and answered with an error; the server stays connected`,
        );
        return {
          content: `Error: ${tool} on the MCP server "${name}" did not answer within ${timeout} ms and was cancelled. Try again, or use another approach.`,
          isError: true,
        };
      }
      if (fault?.kind === 'crash' || fault?.kind === 'malformed') {
        const effect = await clock.hold(withinWallLimit(armed!, 'the fault'));
        controller.abort(new Error('connection reset'));
        const detail = 'detail' in effect ? effect.detail : '';
        const what =
          fault.kind === 'crash'
            ? `the server crashed while ${tool} was running`
            : `the server answered ${tool} with a malformed JSON-RPC message`;
        decide(
          fault.kind === 'crash' ? 'crashed' : 'malformed',
          reconnects ? 'reconnect' : 'gone',
          `${what} (MCP fault "${fault.id}": ${detail}); the call is answered with an error`,
        );
        const back = await recover(
          fault.kind === 'crash' ? 'the server crashed' : 'the server sent a malformed message',
        );
        return {
          content: back
            ? `Error: ${what}. The server was restarted and its tools re-listed; anything the call did was undone. Send the call again.`
            : goneText(tool),
          isError: true,
        };
      }
      let result: Awaited<typeof request>;
      try {
        result = await clock.hold(withinWallLimit(request, `${tool} on ${name}`));
      } catch (error) {
        if (error instanceof WallLimitError) throw error;
        if (isSessionGone(error)) {
          const why = `the server answered 404 on the session id: the session expired${fault?.kind === 'session_expired' ? ` (MCP fault "${fault.id}")` : ''}`;
          decide(
            'session_expired',
            !mayRetry ? 'surface' : reconnects ? 'reconnect' : 'gone',
            `${why}; ${!mayRetry ? 'it expired again: the call is answered with an error' : reconnects ? `a new session is opened and ${tool} sent again (the server never ran it)` : 'reconnecting is off: the call is answered with an error'}`,
          );
          if (mayRetry && (await recover('the session expired')))
            return send(tool, args, ctx, undefined, undefined, false);
          return {
            content:
              state === 'gone'
                ? goneText(tool)
                : `Error: the MCP server "${name}" lost the session twice for ${tool}.`,
            isError: true,
          };
        }
        // The server went away without a fault: the same recovery as a crash.
        const cause = `the connection was lost while ${tool} was running (${describe(error)})`;
        decide('lost', reconnects ? 'reconnect' : 'gone', `${cause}; the call is answered with an error`);
        const back = await recover('the connection was lost');
        return {
          content: back
            ? `Error: ${cause}. The server was reconnected and its tools re-listed. Send the call again.`
            : goneText(tool),
          isError: true,
        };
      }
      if (armed) {
        const effect = await clock.hold(withinWallLimit(armed, 'the fault'));
        if (effect.kind === 'is_error')
          decide(
            'is_error',
            'surface',
            `the server flagged ${tool}'s result isError (MCP fault "${fault!.id}"): the model reads it as the tool's error, and it counts against the server's failure budget`,
          );
        if (effect.kind === 'list_changed') {
          if (fault!.remove) removed.add(fault!.remove);
          decide(
            'list_changed',
            config.recovery.relist ? 'relist' : 'go_on',
            `the server sent notifications/tools/list_changed after ${tool} (MCP fault "${fault!.id}"${fault!.remove ? `: ${fault!.remove} is off its list` : ''}); ${config.recovery.relist ? 'its tools are re-listed before its next call' : 're-listing is off: the old list stands'}`,
          );
        }
      }
      const isError = result.isError === true;
      if (dir && !isError) syncIn(dir, ctx.workspace);
      return { content: resultText(result), isError };
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

  const builtin = new Map(WORKSPACE_SERVER_TOOLS.map((t) => [t.name, t]));

  return {
    tools,
    async start() {
      for (const server of servers) {
        await server.start();
        for (const listed of server.listed()) {
          if (tools.some((t) => t.name === listed.name)) continue; // the first server to list a name has it
          const own = server.shipped ? builtin.get(listed.name) : undefined;
          tools.push({
            name: listed.name,
            description:
              listed.description ?? own?.description ?? `${listed.name} on the MCP server ${server.name}`,
            input: own?.input ?? inputOf(listed),
            budgetKey: `mcp:${server.name}`,
            ...(own?.mutates ? { mutates: true } : {}),
            run: (args, ctx) => server.call(listed.name, args, ctx),
          });
        }
      }
    },
    states: () => Object.fromEntries(servers.map((s) => [s.name, s.state()])),
    pids: () => servers.flatMap((s) => s.pids()),
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
