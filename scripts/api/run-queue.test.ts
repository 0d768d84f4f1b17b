import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import { DB_FILE_NAME } from '@/lib/store';
import { startPostgresCluster, type PostgresCluster } from '@/lib/testing/postgres-cluster';
import { kill, killAll, serve, startRedis, startRun, startWorker, type Started } from './processes.testkit';
import {
  canonical,
  follow,
  pacedConfig,
  storedLog,
  uninterruptedForm,
  type LoggedEvent,
  type Received,
} from './run-stream.testkit';

/**
 * Runs on queue workers, streams from any web instance. Real processes on one shared data folder
 * (SQLite in WAL mode, several processes): a redis-server, two API servers (the real route
 * handlers, scripts/api/serve-api.ts) with LOOP_LAB_REDIS_URL set, and two `npm run worker`
 * processes. Runs are started through instance A and watched through instance B; the worker
 * holding the most runs is SIGKILLed while they are in flight. Every stream through B must carry
 * every event, dense from seq 0, exactly as stored, and end with the run's terminate; no run may
 * stay `running`; the runs the dead worker held are resumed on the other one, and every run's
 * log is the log the same config and seed make in one process without Redis. The same on a
 * real Postgres as the one store (LOOP_LAB_DATABASE_URL), as several machines would share it.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-run-queue-'));
const soloDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-run-queue-solo-'));

let cluster: PostgresCluster | undefined;
afterAll(async () => {
  killAll();
  await cluster?.stop();
  for (const folder of [dir, soloDir]) fs.rmSync(folder, { recursive: true, force: true });
});

/** Which process (its pid) the store says holds each running run: the SQLite file, or the Postgres database at `url`. */
async function holders(ids: readonly string[], url?: string): Promise<Map<number, number>> {
  const rows = url ? await postgresRunning(url) : sqliteRunning();
  const count = new Map<number, number>();
  for (const { id, owner } of rows) {
    if (!ids.includes(id) || !owner) continue;
    const pid = Number(owner.split(':')[1]);
    count.set(pid, (count.get(pid) ?? 0) + 1);
  }
  return count;
}

type Holder = { id: string; owner: string | null };

function sqliteRunning(): Holder[] {
  const db = new Database(path.join(dir, DB_FILE_NAME), { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], Holder>(`SELECT id, owner FROM runs WHERE status = 'running'`).all();
  } finally {
    db.close();
  }
}

async function postgresRunning(url: string): Promise<Holder[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Holder>(`SELECT id, owner FROM runs WHERE status = 'running'`)).rows;
  } finally {
    await client.end();
  }
}

describe('runs on two queue workers, two web instances, one Redis and one store', () => {
  it.each(['sqlite', 'postgres'] as const)(
    'streams every run through the instance that did not start it, and a SIGKILLed worker loses nothing (%s)',
    async (store) => {
      const redis = await startRedis(dir);
      let databaseUrl: string | undefined;
      if (store === 'postgres') {
        cluster ??= await startPostgresCluster();
        databaseUrl = await cluster.createDatabase();
      }
      const env = {
        LOOP_LAB_REDIS_URL: redis.url,
        LOOP_LAB_RUN_LOCK_MS: '3000',
        ...(databaseUrl ? { LOOP_LAB_DATABASE_URL: databaseUrl } : {}),
      };
      const [a, b] = await Promise.all([serve(dir, env), serve(dir, env)]);
      const workers: Started[] = await Promise.all([startWorker(dir, env), startWorker(dir, env)]);

      const seeds = Array.from({ length: 6 }, (_, i) => 500 + i);
      const ids = await Promise.all(seeds.map((seed) => startRun(a!.base, pacedConfig(seed))));
      const seen = new Map<string, Received[]>(ids.map((id) => [id, []]));
      const reading = ids.map((id) => follow(b!.base, id, seen.get(id)!));

      // A random moment while the runs are in flight on the workers: once B has sent events.
      const random = createRandom(20_261_205);
      const begun = Date.now();
      while ([...seen.values()].reduce((n, e) => n + e.length, 0) < 10 && Date.now() - begun < 60_000)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random.next() * 1_500)));
      const held = await holders(ids, databaseUrl);
      const victim = workers.reduce((most, w) =>
        (held.get(w.child.pid!) ?? 0) > (held.get(most.child.pid!) ?? 0) ? w : most,
      );
      const heldByVictim = held.get(victim.child.pid!) ?? 0;
      expect(heldByVictim, 'the worker SIGKILLed held runs in flight').toBeGreaterThan(0);
      await kill(victim.child);
      await Promise.all(reading);

      let resumed = 0;
      const logs = new Map<string, { seq: number; json: string }[]>();
      for (const id of ids) {
        const received = seen.get(id)!;
        expect(received.at(-1)?.event, `run ${id}: B's stream ends with terminate`).toBe('terminate');
        expect(
          received.map((e) => e.seq),
          `run ${id}: B sent every seq once, in order`,
        ).toEqual(received.map((_, i) => i));
        const stored = await storedLog(a!.base, id);
        expect(stored.map((e) => canonical(e.json))).toEqual(received.map((e) => canonical(e.json)));
        const events = stored.map((e) => JSON.parse(e.json) as LoggedEvent);
        expect(events.at(-1)?.reason, `run ${id}: ends as the run does, not cut off`).not.toBe(
          'server_restart',
        );
        if (events.some((e) => e.event === 'resumed_after_restart')) resumed += 1;
        logs.set(id, stored);
      }
      // The runs the dead worker held went on on the other one.
      expect(resumed).toBeGreaterThan(0);
      const listed = (await (await fetch(`${b!.base}/runs`)).json()) as { id: string; status: string }[];
      expect(listed.filter((r) => ids.includes(r.id) && r.status === 'running')).toEqual([]);

      // A virtual-clock run on the workers too (it is over in a moment of wall time).
      const virtual = { ...pacedConfig(600), clock: 'virtual' };
      const onWorker = await startRun(a!.base, virtual);
      await follow(b!.base, onWorker, []);

      // The same configs and seeds in one process without Redis: the same logs.
      const solo = await serve(fs.mkdtempSync(path.join(soloDir, `${store}-`)), {
        LOOP_LAB_REDIS_URL: '',
        REDIS_URL: '',
        LOOP_LAB_DATABASE_URL: '',
        DATABASE_URL: '',
      });
      const soloIds = await Promise.all(seeds.map((seed) => startRun(solo.base, pacedConfig(seed))));
      const soloVirtual = await startRun(solo.base, virtual);
      await Promise.all([...soloIds, soloVirtual].map((id) => follow(solo.base, id, [])));
      for (const [i, id] of ids.entries())
        expect(
          uninterruptedForm(logs.get(id)!),
          `run ${id} (seed ${seeds[i]}) on the workers: the log of the same run in one process`,
        ).toEqual(uninterruptedForm(await storedLog(solo.base, soloIds[i]!)));
      const virtualLog = await storedLog(a!.base, onWorker);
      expect(virtualLog.length).toBeGreaterThan(5);
      expect(uninterruptedForm(virtualLog), 'the virtual-clock run: the same log as in one process').toEqual(
        uninterruptedForm(await storedLog(solo.base, soloVirtual)),
      );
      await kill(solo.child);

      // A control sent through B reaches the worker holding a run started through A.
      const controlled = await startRun(a!.base, pacedConfig(900));
      const watched: Received[] = [];
      const watching = follow(a!.base, controlled, watched);
      while (watched.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      const response = await fetch(`${b!.base}/runs/${controlled}/control`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'abort' }),
      });
      expect(response.status).toBe(202);
      await watching;
      expect(JSON.parse(watched.at(-1)!.json)).toMatchObject({ event: 'terminate', reason: 'aborted' });
    },
    240_000,
  );

  it('room mode across instances: a session from A works on B, and the runs-a-minute limit is one for both', async () => {
    const redis = await startRedis(dir);
    const env = {
      LOOP_LAB_REDIS_URL: redis.url,
      LOOP_LAB_ROOM_CODE: 'queue-room',
      LOOP_LAB_SESSION_SECRET: 'a-secret-both-instances-share-0123456789',
      LOOP_LAB_ROOM_RUNS_PER_MIN: '3',
      LOOP_LAB_ROOM_LIVE_RUNS: '10',
    };
    const [a, b] = await Promise.all([serve(dir, env), serve(dir, env)]);
    await startWorker(dir, env);
    const joined = await fetch(`${a!.base}/room/join`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: 'queue-room' }),
    });
    expect(joined.status).toBe(200);
    const cookie = joined.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
    const post = (base: string): Promise<Response> =>
      fetch(`${base}/runs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', cookie },
        body: JSON.stringify({ config: pacedConfig(700) }),
      });
    // Without the session, B refuses; with the session A sealed, B knows the visitor.
    expect((await fetch(`${b!.base}/runs`)).status).toBe(401);
    const started = [await post(a!.base), await post(b!.base), await post(a!.base)];
    expect(started.map((r) => r.status)).toEqual([201, 201, 201]);
    const ids = await Promise.all(started.map(async (r) => ((await r.json()) as { id: string }).id));
    const listed = (await (await fetch(`${b!.base}/runs`, { headers: { cookie } })).json()) as {
      id: string;
    }[];
    expect(listed.map((r) => r.id).sort()).toEqual([...ids].sort());
    // The fourth run in the minute, through B: refused by the bucket both instances take from.
    const refused = await post(b!.base);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { limit: { name: string } }).limit.name).toBe('runsPerMinute');
    for (const id of ids)
      await fetch(`${b!.base}/runs/${id}/control`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', cookie },
        body: JSON.stringify({ action: 'abort' }),
      });
  }, 120_000);

  it('a run nobody follows on any instance is aborted as abandoned; one followed through B is not', async () => {
    const redis = await startRedis(dir);
    const env = { LOOP_LAB_REDIS_URL: redis.url, LOOP_LAB_UNWATCHED_MS: '3000' };
    const [a, b] = await Promise.all([serve(dir, env), serve(dir, env)]);
    await startWorker(dir, env);
    // Paced at 0.5: about 20 s of wall time each, far past the 3 s an unwatched run is given.
    const slow = (seed: number): Record<string, unknown> => ({ ...pacedConfig(seed), timeScale: 0.5 });
    const [left, watched] = await Promise.all([startRun(a!.base, slow(801)), startRun(a!.base, slow(802))]);
    const events: Received[] = [];
    await follow(b!.base, watched!, events);
    expect(JSON.parse(events.at(-1)!.json)).not.toMatchObject({ reason: 'abandoned' });
    expect(JSON.parse(events.at(-1)!.json)).toMatchObject({ event: 'terminate' });
    const end = (await storedLog(a!.base, left!)).at(-1)!;
    expect(JSON.parse(end.json)).toMatchObject({ event: 'terminate', reason: 'abandoned' });
  }, 120_000);

  it('a run taken by a worker on another store ends at once, saying why, instead of waiting forever', async () => {
    const redis = await startRedis(dir);
    const env = { LOOP_LAB_REDIS_URL: redis.url };
    const web = await serve(dir, env);
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-run-queue-other-'));
    try {
      await startWorker(elsewhere, env);
      const id = await startRun(web.base, pacedConfig(950));
      const events: Received[] = [];
      await follow(web.base, id, events);
      expect(JSON.parse(events.at(-1)!.json)).toMatchObject({ event: 'terminate', reason: 'server_restart' });
      expect(JSON.parse(events.at(-1)!.json).message).toMatch(/does not share the web instances' store/);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 120_000);
});
