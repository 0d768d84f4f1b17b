import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createClock, createRandom } from '@/lib/clock';
import { listFilesTool } from '../tools/list-files';
import { readFileTool } from '../tools/read-file';
import { writeFileTool } from '../tools/write-file';
import type { AnyTool } from '../registry';
import { MemoryWorkspace } from '../workspace';

/** The tools the shipped server offers: the built-in ones of the same name, over a folder on disk. */
export const WORKSPACE_SERVER_TOOLS: readonly AnyTool[] = [listFilesTool, readFileTool, writeFileTool];

/** The most files and bytes the server reads from its folder per call (a folder past that is refused). */
export const MAX_FILES = 2_000;
export const MAX_BYTES = 8 * 1024 * 1024;

const SKIP = new Set(['node_modules', '.git']);

/** Every text file under `root` (node_modules and .git left out), by its path relative to it. */
export function readFolder(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        count++;
        bytes += statSync(full).size;
        if (count > MAX_FILES || bytes > MAX_BYTES)
          throw new Error(`the folder holds more than ${MAX_FILES} files or ${MAX_BYTES} bytes`);
        files[path.relative(root, full).split(path.sep).join('/')] = readFileSync(full, 'utf8');
      }
    }
  };
  walk(root);
  return files;
}

/**
 * One call of a built-in tool over the folder: the folder read into a workspace, the tool run on
 * it, and the files it wrote written back. So the server answers exactly what the built-in tool
 * answers in a run (the same text, the same errors).
 */
async function runOverFolder(
  root: string,
  tool: AnyTool,
  args: unknown,
): Promise<{ text: string; isError: boolean }> {
  const workspace = new MemoryWorkspace(readFolder(root));
  const before = workspace.revision();
  const parsed = tool.input.safeParse(args);
  if (!parsed.success)
    return { text: `Error: invalid arguments for ${tool.name}: ${parsed.error.message}`, isError: true };
  const result = await tool.run(parsed.data, {
    workspace,
    clock: createClock({ kind: 'real', timeScale: 1 }),
    random: createRandom(0),
    signal: new AbortController().signal,
  });
  if (workspace.revision() !== before) {
    const onDisk = readFolder(root);
    for (const file of workspace.paths()) {
      const content = workspace.read(file)!;
      if (onDisk[file] === content) continue;
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), content);
    }
  }
  return { text: result.content, isError: result.isError };
}

/** The shipped MCP server over one folder: list_files, read_file and write_file, as the built-in tools. */
export function createWorkspaceServer(root: string): McpServer {
  const server = new McpServer(
    { name: 'loop-lab-workspace', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  for (const tool of WORKSPACE_SERVER_TOOLS) {
    // The built-in tool's own zod schema is the input schema the server lists.
    const register = server.registerTool.bind(server) as (
      name: string,
      config: { description: string; inputSchema: unknown },
      handler: (args: unknown) => Promise<{ content: { type: 'text'; text: string }[]; isError: boolean }>,
    ) => void;
    register(tool.name, { description: tool.description, inputSchema: tool.input }, async (args) => {
      const { text, isError } = await runOverFolder(root, tool, args);
      return { content: [{ type: 'text', text }], isError };
    });
  }
  return server;
}

/** Serves the folder on stdin/stdout until stdin closes. */
export async function serveStdio(root: string): Promise<void> {
  await createWorkspaceServer(root).connect(new StdioServerTransport());
}

/**
 * Serves the folder over Streamable HTTP on 127.0.0.1 (never another interface), one session per
 * client: an initialize request opens one (its id in the `mcp-session-id` header), DELETE ends it,
 * and a request naming a session the server does not hold is answered 404, as the spec says, so
 * the client opens a new one.
 */
export async function serveHttp(root: string, port = 0): Promise<{ server: Server; url: string }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const notFound = (res: ServerResponse): void => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
    );
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = sessions.get(id);
      if (!transport) return notFound(res);
      await transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') return notFound(res);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createWorkspaceServer(root).connect(transport);
    await transport.handleRequest(req, res);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return { server, url: `http://127.0.0.1:${bound}/mcp` };
}
