import { test as base } from '@playwright/test';
import { serverUrl } from './servers';

export { expect, type Locator, type Page } from '@playwright/test';

/** Playwright's `test`, with `baseURL` the server of this worker's slot (e2e/servers.ts). */
export const test = base.extend({
  // Playwright reads which fixtures a fixture needs from this pattern: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => {
    await use(serverUrl(testInfo.parallelIndex));
  },
});
