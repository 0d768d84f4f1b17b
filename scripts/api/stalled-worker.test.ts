import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_FILE_NAME } from '@/lib/store';
import { kill, killAll, serve, startRedis, startRun, startWorker } from './processes.testkit';
import { eventOf, pacedConfig, uninterruptedForm } from './run-queue.testkit';
import { follow, storedLog, type Received } from './run-stream.testkit';

/**
 * A queue worker that is alive but stalled past its hold on its runs (SIGSTOP: a long pause, a
 * frozen machine) loses them to the other worker, which takes them over and resumes them from
 * their stored logs. When it wakes (SIGCONT) it must stop those runs at once, quietly: no vendor
 * request, no event, no announcement; every run's log is the log one process makes for its seed.
 * Real processes on one SQLite data folder: a redis-server, one API server, two workers.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-stalled-worker-'));
const soloDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-stalled-worker-solo-'));

afterAll(() => {
  killAll();
  for (const folder of [dir, soloDir]) fs.rmSync(folder, { recursive: true, force: true });
});

/** Each running run of `ids` with the pid of the process the store says holds it. */
function runningHolders(ids: readonly string[]): Map<string, number> {
  const db = new Database(path.join(dir, DB_FILE_NAME), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[], { id: string; owner: string | null }>(
        `SELECT id, owner FROM runs WHERE status = 'running'`,
      )
      .all();
    return new Map(
      rows.filter((r) => ids.includes(r.id) && r.owner).map((r) => [r.id, Number(r.owner!.split(':')[1])]),
    );
  } finally {
    db.close();
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (polling) until `done` holds, or `limitMs` of wall time has passed; whether it held. */
async function until(done: () => boolean, limitMs: number): Promise<boolean> {
  const begun = Date.now();
  while (!done()) {
    if (Date.now() - begun > limitMs) return false;
    await pause(50);
  }
  return true;
}

describe('a worker stalled past its lock', () => {
  it('stops the runs another worker took over when it wakes: no request, no event, one holder’s log', async () => {
    const redis = await startRedis(dir);
    const env = { LOOP_LAB_REDIS_URL: redis.url, LOOP_LAB_RUN_LOCK_MS: '2000' };
    const web = await serve(dir, env);
    const workers = await Promise.all([
      startWorker(dir, env, ['--log-requests']),
      startWorker(dir, env, ['--log-requests']),
    ]);

    const seeds = [520, 521, 522, 523];
    const ids = await Promise.all(seeds.map((seed) => startRun(web.base, pacedConfig(seed))));
    const seen = new Map<string, Received[]>(ids.map((id) => [id, []]));
    const reading = ids.map((id) => follow(web.base, id, seen.get(id)!));
    await until(() => [...seen.values()].every((events) => events.length >= 2), 60_000);

    // The worker holding the most runs stalls, past its lock, until the other has taken them over.
    const held = runningHolders(ids);
    const count = (pid: number): number => [...held.values()].filter((p) => p === pid).length;
    const victim = workers.reduce((most, w) => (count(w.child.pid!) > count(most.child.pid!) ? w : most));
    const victimPid = victim.child.pid!;
    const stalled = [...held].filter(([, pid]) => pid === victimPid).map(([id]) => id);
    expect(stalled.length, 'the worker stalled held runs in flight').toBeGreaterThan(0);
    victim.child.kill('SIGSTOP');
    const takenOver = await until(
      () => [...runningHolders(stalled).values()].every((pid) => pid !== victimPid),
      60_000,
    );
    expect(takenOver, 'the other worker took the stalled worker’s runs over').toBe(true);
    const before = victim.lines.length;
    victim.child.kill('SIGCONT');
    await Promise.all(reading);

    // Woken, it finds each run it held is another's (at its next write or request) and says so once.
    const lostLines = (): string[] =>
      victim.lines.slice(before).filter((line) => line.includes('lost to another holder'));
    await until(() => stalled.every((id) => lostLines().some((line) => line.includes(id))), 20_000);
    const after = victim.lines.slice(before);
    for (const id of stalled) {
      expect(
        after.filter((line) => line.includes(`run ${id}: a vendor request`)),
        `run ${id}: the woken worker sent no vendor request`,
      ).toEqual([]);
      expect(
        after.filter((line) => line.includes(`run ${id}: could not store`)),
        `run ${id}: the woken worker tried to write nothing`,
      ).toEqual([]);
      expect(
        lostLines().filter((line) => line.includes(id)),
        `run ${id}: the woken worker says once that it lost it`,
      ).toHaveLength(1);
    }

    // Every run: one terminate, at the end, as the run ends it; the log one process makes for its seed.
    const solo = await serve(soloDir, { LOOP_LAB_REDIS_URL: '', REDIS_URL: '' });
    const soloIds = await Promise.all(seeds.map((seed) => startRun(solo.base, pacedConfig(seed))));
    await Promise.all(soloIds.map((id) => follow(solo.base, id, [])));
    let resumed = 0;
    for (const [i, id] of ids.entries()) {
      const stored = await storedLog(web.base, id);
      const events = stored.map(eventOf);
      expect(
        events.map((e) => e.seq),
        `run ${id}: dense seqs`,
      ).toEqual(events.map((_, n) => n));
      expect(
        events.filter((e) => e.event === 'terminate'),
        `run ${id}: one terminate`,
      ).toHaveLength(1);
      expect(events.at(-1)?.event).toBe('terminate');
      expect(
        events.filter((e) => e.event === 'storage_error'),
        `run ${id}: no refused write`,
      ).toEqual([]);
      if (events.some((e) => e.event === 'resumed_after_restart')) resumed += 1;
      expect(uninterruptedForm(stored), `run ${id} (seed ${seeds[i]}): one process’s log`).toEqual(
        uninterruptedForm(await storedLog(solo.base, soloIds[i]!)),
      );
      // What the stream through the API server carried is what is stored.
      expect(seen.get(id)!.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    }
    expect(resumed).toBeGreaterThanOrEqual(stalled.length);
    await kill(solo.child);
  }, 240_000);
});
