import { createRandom } from '../lib/clock';
import { startDeployment, type Deployment } from '../scripts/api/deployment.testkit';
import { kill, startRun } from '../scripts/api/processes.testkit';
import {
  eventOf,
  pacedConfig,
  streamProblems,
  uninterruptedForm,
  wasResumed,
} from '../scripts/api/run-queue.testkit';
import { follow, storedLog, type Received } from '../scripts/api/run-stream.testkit';
import { expect, test } from './test';

/**
 * Several machines behind one URL, from the production build: two `next start` web instances, two
 * `npm run worker` processes, a real Redis and a real Postgres as the one store, each process with
 * a data folder of its own (scripts/api/deployment.testkit.ts). Runs are started through instance
 * A and watched through instance B, over HTTP and in a browser on B; the worker holding the most
 * runs is SIGKILLed while they are in flight. Every stream through B carries every event as
 * stored and ends with the run's terminate, no run stays `running`, the dead worker's runs go on
 * on the other one, and every log is the log one `next start` without Redis makes for the same
 * config and seed (this worker's own server, which has neither Redis nor Postgres).
 */

let deployment: Deployment | undefined;
test.afterAll(async () => {
  await deployment?.stop();
});

test('a run started through A is watched through B to its end; a worker SIGKILLed mid-run loses nothing', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(360_000);
  // A lost worker's runs go on another after 10 s. At 3 s, a live worker on a machine at load 40
  // missed renewing its hold, and a run was taken by the other worker while it still ran.
  deployment = await startDeployment({ env: { LOOP_LAB_RUN_LOCK_MS: '10000' } });
  const [a, b] = deployment.web.map((server) => `${server.base}/api`) as [string, string];
  const seeds = Array.from({ length: 6 }, (_, i) => 500 + i);
  const ids = await Promise.all(seeds.map((seed) => startRun(a, pacedConfig(seed))));
  const seen = new Map<string, Received[]>(ids.map((id) => [id, []]));
  const reading = ids.map((id) => follow(b, id, seen.get(id)!));
  // The same configs and seeds in one process: this worker's own server, without Redis.
  const solo = await Promise.all(seeds.map((seed) => startRun(`${baseURL}/api`, pacedConfig(seed))));
  const soloDone = Promise.all(solo.map((id) => follow(`${baseURL}/api`, id, [])));

  // A person's view on B of a run started through A, opened while it runs (not waited for: a
  // first page of a cold server took most of a minute at load 40, and the runs are in flight now).
  const watchedId = ids[0]!;
  const opening = page.goto(`${deployment.web[1]!.base}/runs/${watchedId}`);

  // A random moment while the runs are in flight on the workers: once B has sent events.
  await expect
    .poll(() => [...seen.values()].reduce((n, e) => n + e.length, 0), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(10);
  await page.waitForTimeout(Math.floor(createRandom(20_261_205).next() * 1_500));
  const held = await deployment.holders(ids);
  const victim = deployment.workers.reduce((most, w) =>
    (held.get(w.child.pid!) ?? 0) > (held.get(most.child.pid!) ?? 0) ? w : most,
  );
  expect(held.get(victim.child.pid!) ?? 0, 'the worker SIGKILLed held runs in flight').toBeGreaterThan(0);
  await kill(victim.child);
  await Promise.all(reading);

  let resumed = 0;
  const logs = new Map<string, { seq: number; json: string }[]>();
  for (const id of ids) {
    const stored = await storedLog(a, id);
    expect(streamProblems(id, seen.get(id)!, stored)).toEqual([]);
    if (wasResumed(stored)) resumed += 1;
    logs.set(id, stored);
  }
  expect(resumed, "the dead worker's runs went on on the other worker").toBeGreaterThan(0);
  const listed = (await (await fetch(`${b}/runs`)).json()) as { id: string; status: string }[];
  expect(listed.filter((r) => ids.includes(r.id) && r.status === 'running')).toEqual([]);

  // The page on B shows the run to its end, with the terminate the store holds.
  await opening;
  const end = eventOf(logs.get(watchedId)!.at(-1)!);
  const banner = page.getByTestId('terminate-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toHaveAttribute('data-reason', end.reason!);

  await soloDone;
  for (const [i, id] of ids.entries())
    expect(
      uninterruptedForm(logs.get(id)!),
      `run ${id} (seed ${seeds[i]}) on the workers: the log of the same run in one process`,
    ).toEqual(uninterruptedForm(await storedLog(`${baseURL}/api`, solo[i]!)));
});
