import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyTool } from '../registry';
import { createServerClient, type McpHubOptions, type ServerState } from './server-client';
import { WORKSPACE_SERVER_TOOLS } from './workspace-server';

export type { AllowedServers, McpHubOptions, ServerState } from './server-client';

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

/** The description of a tool whose input the server gave as JSON Schema: validated against it here too. */
function inputOf(tool: McpTool): z.ZodType {
  try {
    return z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

/**
 * A run's MCP servers: each one connected through the official SDK's client (a process of its own
 * on stdio, or Streamable HTTP), its tools offered to the model as the run's tools, its transport
 * faults applied (lib/protocol/mcp.ts) and its recovery decided by its client (server-client.ts):
 * reconnect with a doubling wait on the run's clock (bounded attempts), re-listing its tools after
 * a reconnect or a list_changed notification, and a clear error to the model once it is gone.
 * Every decision is a `mechanism_decision` event (`mcp:<server>`) with its reason and what happens
 * next. Real work (a process starting, a call in flight) holds the run's clock, and is bounded in
 * wall time (WALL_LIMIT_MS): past that the call ends the run as the machine's failure
 * (`hostOverloaded`), never as a recorded outcome of the server.
 */
export function createMcpHub(options: McpHubOptions): McpHub {
  const servers = options.config.servers.map((server) => createServerClient(server, options));
  const tools: AnyTool[] = [];

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
