export { createMcpHub, type AllowedServers, type McpHub, type ServerState } from './mcp-hub';
export { WALL_LIMIT_MS } from './server-process';
