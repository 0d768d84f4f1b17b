import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const INCLUDE = ['lib/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts'];

/**
 * Run alone, after the unit tests (`npm run test:determinism`): they start busy loops beside their
 * runs, which would slow every test running with them, and they need the load to be their own.
 */
const ALONE = ['lib/testing/determinism.test.ts', 'lib/lessons/lessons-at-load.test.ts'];

/**
 * Test files that change what every later file in the same worker would see, so each runs in a
 * fresh module graph of its own: module mocks (`vi.mock`, `vi.resetModules`) and a process-wide
 * setting made at import and never undone.
 */
const ISOLATED = [
  'lib/server/run-registry.once.test.ts', // vi.mock of the run-totals, storable-event and redaction modules
  'lib/server/comparison-cache.test.ts', // vi.mock('server-only')
  'lib/server/finished-run-views.test.ts', // vi.mock('server-only')
  'lib/client/run-view/sliced-fold.test.ts', // vi.resetModules
  'lib/sweeps/run-sweep-job.test.ts', // turns on the sweep workers' check-result cache, as a worker's entry does
  'lib/tools/check/proc-poll.test.ts', // vi.mock('node:fs'): sees the check's reads only in a fresh graph
  'components/runs/run-page-server-render.test.ts', // vi.mock of server-only and next/navigation
];

/**
 * Vitest's default is one worker fewer than the cores: one on a 2-core machine, where the suite then
 * ran file after file (1,092 s in CI). Its slowest files mostly wait on processes they started
 * (servers, workers, Redis, Postgres), not on the CPU, so the unit projects take at least two: the
 * same suite took 718 s with two on the same machine, every file passing.
 */
const UNIT_WORKERS = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./', import.meta.url)) },
  },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-reports/unit.json' },
    // `server-only` throws outside a React Server Component bundle; tests run server code directly.
    alias: { 'server-only': fileURLToPath(new URL('./lib/testing/server-only-stub.ts', import.meta.url)) },
    projects: [
      // Every other file shares its worker's module graph with the files before it (`isolate: false`):
      // importing the engine, the SDKs and the schemas again for each of 250 files was most of the
      // suite's time. Each file still leaves the process as it found it (the server's singletons,
      // environment variables, timers and globals are put back in its afterAll/afterEach).
      {
        extends: true,
        test: {
          name: 'shared',
          include: INCLUDE,
          exclude: [...ISOLATED, ...ALONE],
          isolate: false,
          maxWorkers: UNIT_WORKERS,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, isolate: true, maxWorkers: UNIT_WORKERS },
      },
      { extends: true, test: { name: 'determinism', include: ALONE, isolate: true } },
    ],
  },
});
