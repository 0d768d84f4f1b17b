import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/testing/chromium-launch';
import { DEPLOYMENTS, FIRST_PORT, RUN_ALONE, SERVERS, serverUrl } from './e2e/servers';

/** `npm test` builds beside the unit tests and sets E2E_BUILT; run alone, the browser tests build first. */
const BUILD = process.env.E2E_BUILT ? '' : 'npx next build && ';

/** One `next start` with its own data folder (e2e/servers.ts says why there are two). */
function server(port: number, index: number) {
  return {
    // Only the first server builds (the servers start one after the other): the second reuses its build.
    command: `${index === 0 ? BUILD : ''}npx next start -p ${port} -H 127.0.0.1`,
    url: `http://127.0.0.1:${port}/api/scenarios`,
    // `next build` alone took 5–14 minutes on a 2-core machine under heavy load; a slow build
    // should fail on its own errors, not on this wait.
    timeout: 900_000,
    reuseExistingServer: false,
    env: {
      LOOP_LAB_DATA_DIR: `.data/e2e-${process.pid}-${index}`,
      LOOP_LAB_UNWATCHED_MS: '20000',
      // The local vendor stand-ins (lib/audit/vendor-stand-ins.ts) listen on 127.0.0.1: runs that bring their own key may use them.
      LOOP_LAB_ALLOWED_REQUEST_HOSTS: '127.0.0.1',
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: SERVERS,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-reports/e2e.json' }]] : [['list']],
  use: {
    baseURL: serverUrl(0), // each worker's own server: e2e/test.ts
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
  // The timing specs wait for the others (a failure there skips them: the run is red either way);
  // a spec with a deployment of its own runs beside the paired ones (e2e/servers.ts).
  projects:
    SERVERS === 1
      ? [{ name: 'all' }]
      : [
          { name: 'paired', testIgnore: [...RUN_ALONE, ...DEPLOYMENTS] },
          { name: 'deployment', testMatch: DEPLOYMENTS },
          { name: 'alone', testMatch: RUN_ALONE, dependencies: ['paired', 'deployment'], workers: 1 },
        ],
  webServer: Array.from({ length: SERVERS }, (_, index) => server(FIRST_PORT + index, index)),
});
