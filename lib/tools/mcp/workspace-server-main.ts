import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { serveHttp, serveStdio } from './workspace-server';

/**
 * The shipped MCP server as a process of its own:
 *   npx tsx lib/tools/mcp/workspace-server-main.ts --root <folder> [--http [port]]
 * On stdio by default; with --http, on Streamable HTTP at 127.0.0.1 (port 0: any free one), and
 * the first line it prints on stdout is `listening <url>`.
 */
const USAGE = 'usage: workspace-server-main.ts --root <folder> [--http [port]]';

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--root');
  const root = at >= 0 ? argv[at + 1] : undefined;
  if (!root) throw new Error(`--root <folder> is required (${USAGE})`);
  const dir = path.resolve(root);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`--root ${root}: not a folder`);
  const http = argv.indexOf('--http');
  if (http < 0) return serveStdio(dir);
  const portText = argv[http + 1];
  const port = portText && /^\d+$/.test(portText) ? Number(portText) : 0;
  const { url } = await serveHttp(dir, port);
  process.stdout.write(`listening ${url}\n`);
  // The server ends with the process that started it: stdin closing is that process gone.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
