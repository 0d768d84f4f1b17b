import { describe, expect, it } from 'vitest';
import { checkResultCache } from '@/lib/tools/check/check-result-cache';

describe("the sweep workers' check-result cache", () => {
  it("stays off in a process that loads the sweep runner, so the playground's runs run every check", async () => {
    // The server loads these to run sweeps (and a real endpoint's sweep runs on its own thread);
    // the cache belongs to the sweep worker threads only (lib/sweeps/sweep-worker-entry.ts).
    await import('./run-sweep-job');
    await import('./execute-sweep');
    await import('./local-pool');
    expect(checkResultCache()).toBeUndefined();
  });
});
