import { describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import { kill, serve, startRun } from './processes.testkit';
import { limitedConfig } from './run-queue.testkit';
import { dataFolder, expectReconnectsKeepWhatWasSeen, killWhileFollowed } from './server-restart.testkit';

/**
 * Nothing a client saw is lost in a crash. A real server process (the API's route handlers and
 * store, scripts/api/serve-api.ts) runs live runs with an SSE client on each; it is SIGKILLed at
 * a random moment, started again on the same data folder, and every client reconnects with the
 * Last-Event-ID it had. Every event any client received must be in the store as received, the
 * stored seqs must be unique and dense, and every reconnect must end with the run's terminate.
 */

const dir = dataFolder('sigkill');

/** A real-clock run that waits out two rate limits, so it is in flight for seconds. */
const config = (seed: number): Record<string, unknown> =>
  limitedConfig({ seed, clock: 'real', timeScale: 0.5, retryAfterSec: 2 });

describe('a server SIGKILLed at a random moment (a real process, clients attached)', () => {
  it('keeps every event a client saw, never reuses a seq, and ends every reconnect with terminate', async () => {
    const random = createRandom(20_261_203);
    let checked = 0;
    for (const round of [1, 2]) {
      const first = await serve(dir);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await startRun(first.base, config(round * 100 + i)));
      // A random moment while the runs are in flight (they wait out rate limits on the real clock).
      const seen = await killWhileFollowed(first, ids, random, 1_500);

      const second = await serve(dir);
      await expectReconnectsKeepWhatWasSeen(second.base, seen);
      for (const before of seen.values()) checked += before.length;
      await kill(second.child);
    }
    // The clients saw events before the kills: the check above compared something.
    expect(checked).toBeGreaterThan(20);
  }, 240_000);
});
