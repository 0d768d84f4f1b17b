import { z } from 'zod';

/**
 * MCP tool servers a run takes tools from (lib/tools/mcp). A server's tools join the run's under
 * their own names; one named like a built-in tool replaces it (the shipped server's list_files,
 * read_file and write_file replace the built-in ones, so a run can do its file work over MCP).
 */

/** A server name: it names the server's events (`mcp:<name>`) and its failure budget's account. */
const ServerNameSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{0,31}$/,
    'a server name: lower-case letters, digits and dashes, 1–32, a letter first',
  );

export const McpServerSchema = z.union([
  /** The server Loop Lab ships, over the run's workspace, started as a process of its own. */
  z
    .object({ name: ServerNameSchema, shipped: z.literal('workspace'), transport: z.enum(['stdio', 'http']) })
    .strict(),
  /** A server of one's own on stdio: a command the CLI starts (never through the web API). */
  z
    .object({
      name: ServerNameSchema,
      command: z.string().min(1).max(500),
      args: z.array(z.string().max(2_000)).max(50).default([]),
    })
    .strict(),
  /** A server of one's own on Streamable HTTP (never through the web API). */
  z.object({ name: ServerNameSchema, url: z.url({ protocol: /^https?$/ }).max(2_000) }).strict(),
  /** A server the environment allows (LOOP_LAB_MCP_SERVERS names it): what the web API may name. */
  z.object({ name: ServerNameSchema, allowed: z.literal(true) }).strict(),
]);
export type McpServerConfig = z.infer<typeof McpServerSchema>;

/**
 * A fault on the MCP transport, applied by the client beneath the SDK on the server's calls:
 *   crash          — the server process is killed once the call was sent (an HTTP server of one's own: the connection is dropped)
 *   hang           — the call's answer never comes (the call waits its timeout on the run's clock)
 *   malformed      — the answer comes as a message that is not JSON-RPC
 *   session_expired — the server forgets the session before the call (HTTP: it answers 404 on the session id)
 *   list_changed   — after the call the server says its tool list changed (notifications/tools/list_changed), and `remove` is gone from it
 *   is_error       — the call's result comes back flagged isError
 */
export const McpFaultSchema = z
  .object({
    id: z.string().min(1).max(100),
    kind: z.enum(['crash', 'hang', 'malformed', 'session_expired', 'list_changed', 'is_error']),
    /** The server it hits, or every server. */
    server: z.union([ServerNameSchema, z.literal('*')]).default('*'),
    /** The server's call (1-based, counted per server) it first hits. */
    onCall: z.number().int().min(1).max(10_000).default(1),
    /** How many calls in a row it hits from there. */
    times: z.number().int().min(1).max(10_000).default(1),
    /** list_changed: the tool the changed list no longer has. */
    remove: z.string().min(1).max(64).optional(),
  })
  .strict();
export type McpFault = z.infer<typeof McpFaultSchema>;

/** How the client recovers; every bound is on the run's clock or a count. */
export const McpRecoverySchema = z
  .object({
    /** Reconnect a server that crashed, sent a malformed message or lost its session (off: it is gone). */
    reconnect: z.boolean().default(true),
    /** Reconnect attempts per loss before the server is gone for the run. */
    maxReconnects: z.number().int().min(0).max(10).default(3),
    /** The first wait before a reconnect, doubled per attempt (run time). */
    backoffMs: z.number().int().min(0).max(60_000).default(500),
    /** Re-list the server's tools after a reconnect and after notifications/tools/list_changed (off: the old list stands). */
    relist: z.boolean().default(true),
    /** A call's timeout on the run's clock (a hung call ends there). */
    callTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  })
  .strict();

export const McpConfigSchema = z
  .object({
    servers: z.array(McpServerSchema).min(1).max(8),
    faults: z.array(McpFaultSchema).max(50).default([]),
    recovery: McpRecoverySchema.default({
      reconnect: true,
      maxReconnects: 3,
      backoffMs: 500,
      relist: true,
      callTimeoutMs: 30_000,
    }),
  })
  .strict()
  .superRefine((config, ctx) => {
    const names = config.servers.map((s) => s.name);
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i)
        ctx.addIssue({
          code: 'custom',
          path: ['servers', i, 'name'],
          message: `two servers are named "${name}"`,
        });
    });
    config.faults.forEach((fault, i) => {
      if (fault.server !== '*' && !names.includes(fault.server))
        ctx.addIssue({
          code: 'custom',
          path: ['faults', i, 'server'],
          message: `no server is named "${fault.server}" (the config names ${names.join(', ')})`,
        });
    });
  });
export type McpConfig = z.infer<typeof McpConfigSchema>;

/** What the web API answers a config that names a command or a URL of its own. */
export const MCP_SERVER_NOT_FROM_WEB =
  'an MCP server with a command or a URL of its own runs only from the CLI (npm run loop); through the web API name the shipped server ({"name", "shipped": "workspace", "transport"}) or one the environment allows ({"name", "allowed": true}, listed in LOOP_LAB_MCP_SERVERS)';
