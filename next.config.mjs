/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native addon; piscina starts the sweep workers by file path from a bundle esbuild builds at run time: load them from node_modules at run time, never bundle them.
  // The MCP SDK is loaded as it ships too: it starts server processes and reaches servers at run time.
  serverExternalPackages: [
    'better-sqlite3',
    'piscina',
    'tsx',
    'esbuild',
    'bullmq',
    'ioredis',
    '@modelcontextprotocol/sdk',
  ],
  poweredByHeader: false,
  // `next dev` serves its client chunks to these hosts too (the README says localhost; tools often use 127.0.0.1).
  allowedDevOrigins: ['127.0.0.1', 'localhost'],
  // The dev badge sat over the controls' last group (bottom left); the run view's corner has room.
  devIndicators: { position: 'bottom-right' },
  experimental: {
    // proxy.ts runs for every /api request, so Next buffers each request body for it and keeps only the
    // first proxyClientMaxBodySize bytes (10 MB by default) — a larger import would reach its route cut
    // short. Buffer more than any route accepts (a trace import: MAX_BODY_BYTES, 20 MiB, in
    // lib/server/read-body.ts), with a margin wider than one chunk, so whatever Next cuts is still over the
    // route's own limit and the route answers 413 naming it. app/api/runs/import/large-import.test.ts holds the two together.
    proxyClientMaxBodySize: 21 * 1024 * 1024,
  },
};

export default nextConfig;
