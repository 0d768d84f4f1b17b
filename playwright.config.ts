import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/testing/chromium-launch';

const PORT = Number(process.env.E2E_PORT ?? 3217);
/** `npm test` builds beside the unit tests and sets E2E_BUILT; run alone, the browser tests build first. */
const BUILD = process.env.E2E_BUILT ? '' : 'npx next build && ';

/**
 * Browser tests run against the real app (`next build && next start`) in Debian's Chromium,
 * with a fresh data folder so they never see a developer's runs.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 20_000 },
  // One spec at a time by default: many specs watch real-clock runs live, and on a 2-core machine a
  // second browser and test process beside them makes those timings the machine's, not the app's
  // (tried at a load of 25: 4 of the first 10 failed on timing). E2E_WORKERS=2 runs two files at
  // once on a machine with cores to spare (not yet seen green: the first try was at that load).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-reports/e2e.json' }]] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
  webServer: {
    command: `${BUILD}npx next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/api/scenarios`,
    // `next build` alone took 5–14 minutes on a 2-core machine under heavy load; a slow build
    // should fail on its own errors, not on this wait.
    timeout: 900_000,
    reuseExistingServer: false,
    env: {
      LOOP_LAB_DATA_DIR: `.data/e2e-${process.pid}`,
      LOOP_LAB_UNWATCHED_MS: '20000',
      // The local vendor stand-ins (lib/audit/vendor-stand-ins.ts) listen on 127.0.0.1: runs that bring their own key may use them.
      LOOP_LAB_ALLOWED_REQUEST_HOSTS: '127.0.0.1',
    },
  },
});
