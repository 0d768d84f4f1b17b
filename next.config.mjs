/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native addon; piscina starts the sweep workers by file path from a bundle esbuild builds at run time: load them from node_modules at run time, never bundle them.
  serverExternalPackages: ['better-sqlite3', 'piscina', 'tsx', 'esbuild', 'bullmq', 'ioredis'],
  poweredByHeader: false,
  // `next dev` serves its client chunks to these hosts too (the README says localhost; tools often use 127.0.0.1).
  allowedDevOrigins: ['127.0.0.1', 'localhost'],
  // The dev badge sat over the controls' last group (bottom left); the run view's corner has room.
  devIndicators: { position: 'bottom-right' },
};

export default nextConfig;
