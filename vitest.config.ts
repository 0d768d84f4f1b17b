import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./', import.meta.url)) },
  },
  test: {
    include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-reports/unit.json' },
    // `server-only` throws outside a React Server Component bundle; tests run server code directly.
    alias: { 'server-only': fileURLToPath(new URL('./lib/testing/server-only-stub.ts', import.meta.url)) },
  },
});
