import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMessage } from '@/lib/runtime/types';
import { waitFor } from '@/lib/testing/local-process';
import { startLocalRedis, type LocalRedis } from '@/lib/testing/local-redis';
import { createRunChannels, type RunChannels } from './run-channels';

/**
 * The run channels on a real redis-server: a control message sent while the run waits for a
 * worker is applied when the worker takes the run, in the order sent, and so is each one after;
 * an announcement wakes every follower of the run and no other.
 */
let redis: LocalRedis;
let web: RunChannels;
let worker: RunChannels;

beforeAll(async () => {
  redis = await startLocalRedis('run-channels');
  web = createRunChannels({ redisUrl: redis.url });
  worker = createRunChannels({ redisUrl: redis.url });
}, 60_000);

afterAll(async () => {
  await web?.close();
  await worker?.close();
  redis?.stop();
});

describe('run channels', () => {
  it('hands the worker the controls sent before it took the run, then each one after, in order', async () => {
    const pause: ControlMessage = { action: 'compact' };
    const abort: ControlMessage = { action: 'abort' };
    await web.sendControl('r1', pause);
    await web.sendControl('r1', abort);
    await web.sendControl('r2', abort); // another run's: never handed to r1's worker
    const applied: ControlMessage[] = [];
    const stop = await worker.takeControls('r1', (message) => applied.push(message));
    await waitFor(() => applied.length === 2, 'the waiting controls', 10_000);
    expect(applied).toEqual([pause, abort]);
    await web.sendControl('r1', pause);
    await waitFor(() => applied.length === 3, 'the control sent after', 10_000);
    expect(applied).toEqual([pause, abort, pause]);
    await stop();
    // Stopped: a control sent now is not applied, and what waited is dropped with the run.
    await web.sendControl('r1', abort);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(applied).toHaveLength(3);
  });

  it("wakes each follower of a run on its announcements, not another run's", async () => {
    let woken = 0;
    let other = 0;
    const stop = await web.follow('r3', () => (woken += 1));
    const stopOther = await web.follow('r4', () => (other += 1));
    await worker.announce('r3', 7);
    await waitFor(() => woken === 1, 'the wake-up', 10_000);
    stop();
    await worker.announce('r3', 8);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(woken).toBe(1);
    expect(other).toBe(0);
    stopOther();
  });

  it('tells every process of a run held in a web instance, and once its holder stops renewing, that its hold lapsed', async () => {
    await web.hold('r5', 'host-a:101', 60_000);
    await web.hold('r6', 'host-a:101', 200);
    expect(await worker.heldRuns()).toEqual(
      expect.arrayContaining([
        { runId: 'r5', holder: 'host-a:101', lapsed: false },
        { runId: 'r6', holder: 'host-a:101', lapsed: false },
      ]),
    );
    // Not renewed: r6's hold lapses, and the holder it named is still told.
    for (let tries = 0; !(await worker.heldRuns()).some((r) => r.runId === 'r6' && r.lapsed); tries += 1) {
      expect(tries, 'the lapse within 10 s').toBeLessThan(100);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await worker.heldRuns()).find((r) => r.runId === 'r5')?.lapsed).toBe(false);
    await web.release('r5');
    await worker.release('r6');
    expect(await worker.heldRuns()).toEqual([]);
  });
});
