import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { allCanaries, countCanaries, makeCanaries, scanFolder } from '@/lib/audit/canaries';
import { standInEnv, startStandIns, type StandIns } from '@/lib/audit/vendor-stand-ins';
import { DB_FILE_NAME } from '@/lib/store';
import { kill, serve, startRedis, startWorker, type Started } from './processes.testkit';
import { limitedConfig } from './run-queue.testkit';
import { canonical, follow, storedLog, type Received } from './run-stream.testkit';
import { dataFolder } from './server-restart.testkit';

/**
 * A run that brings its own key, on a deployment whose runs execute on queue workers. Real
 * processes on one data folder: a redis-server, two API servers with LOOP_LAB_REDIS_URL set, two
 * `npm run worker` processes, and local stand-ins for the vendors (lib/audit/vendor-stand-ins.ts)
 * that write down every key they are sent. A keyed run started through A executes in A — no
 * worker takes it, and the stand-in it chose receives its key — while B streams every event and
 * a control sent through B reaches it. Then A is SIGKILLed during another keyed run: a worker
 * ends it with a terminate saying why. Afterwards no canary key is in the store's files, in
 * Redis (every key's value, and its saved dump), or in anything any process printed.
 */

const canaries = makeCanaries();
let standIns: StandIns | undefined;
const dir = dataFolder('run-queue-keys', async () => {
  await standIns?.close();
});

/**
 * A keyed run on the real clock against the request-chosen stand-in: each rate limit listed is
 * waited out for `retryAfterSec` run seconds, at half speed.
 */
function keyedBody(baseUrl: string, seed: number, limited: number[], retryAfterSec: number) {
  return {
    config: limitedConfig({
      seed,
      clock: 'real',
      timeScale: 0.5,
      retryAfterSec,
      requests: limited,
      provider: { vendor: 'anthropic', model: 'claude-sim-sonnet', baseUrl, keySource: 'request' },
    }),
    apiKey: canaries.request,
  };
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The pid of the process the store says holds the run (its owner column). */
function holderPid(runId: string): number {
  const db = new Database(path.join(dir, DB_FILE_NAME), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare<[string], { owner: string | null }>(`SELECT owner FROM runs WHERE id = ?`)
      .get(runId);
    return Number(row?.owner?.split(':')[1]);
  } finally {
    db.close();
  }
}

/** Every key in Redis with its value, whatever its type, as one text. */
async function redisText(url: string): Promise<{ text: string; keys: number }> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys('*');
    const parts: string[] = [];
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'string'
          ? await redis.get(key)
          : type === 'list'
            ? await redis.lrange(key, 0, -1)
            : type === 'hash'
              ? await redis.hgetall(key)
              : type === 'set'
                ? await redis.smembers(key)
                : type === 'zset'
                  ? await redis.zrange(key, 0, -1, 'WITHSCORES')
                  : type === 'stream'
                    ? await redis.xrange(key, '-', '+')
                    : `(${type})`;
      parts.push(key, JSON.stringify(value));
    }
    // The dump too, uncompressed, into the data folder the store scan reads.
    await redis.config('SET', 'rdbcompression', 'no');
    await redis.save();
    return { text: parts.join('\n'), keys: keys.length };
  } finally {
    redis.disconnect();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what: string, check: () => boolean, ms = 180_000): Promise<void> {
  const begun = Date.now();
  while (!check()) {
    if (Date.now() - begun > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await pause(20);
  }
}

describe('a run that brings its own key, with runs on queue workers', () => {
  it('executes in the instance that received the key, streams and takes controls through another, and ends saying why when that instance dies', async () => {
    standIns = await startStandIns({ timeScale: 0.05 });
    const chosen = standIns.requestChosen.anthropic;
    const redis = await startRedis(dir);
    const env = {
      LOOP_LAB_REDIS_URL: redis.url,
      ...standInEnv(standIns, { envAnthropic: canaries.envAnthropic, envOpenai: canaries.envOpenai }),
    };
    const [a, b] = await Promise.all([serve(dir, env), serve(dir, env)]);
    const workers: Started[] = await Promise.all([startWorker(dir, env), startWorker(dir, env)]);

    // Started through A, watched through B: executes in A, the key goes to the stand-in it named.
    const started = await post(`${a!.base}/runs`, keyedBody(chosen.baseUrl, 41, [1, 3], 6));
    expect(started.status, await started.clone().text()).toBe(201);
    const { id } = (await started.json()) as { id: string };
    expect(holderPid(id), 'the store names A as the process that executes the run').toBe(a!.child.pid);
    const seen: Received[] = [];
    const reading = follow(b!.base, id, seen);
    await until('B sends three events', () => seen.length >= 3);
    expect(holderPid(id), 'no worker took the run').toBe(a!.child.pid);
    // Its first request is answered 429 by the fault rule beneath the SDK; the next reaches the stand-in, with the key.
    await until('the stand-in the run named receives its key', () =>
      chosen.keysReceived.includes(canaries.request),
    );

    // A control sent through B reaches the run in A.
    const aborted = await post(`${b!.base}/runs/${id}/control`, { action: 'abort' });
    expect(aborted.status).toBe(202);
    await reading;
    expect(JSON.parse(seen.at(-1)!.json)).toMatchObject({ event: 'terminate', reason: 'aborted' });
    expect(
      seen.map((e) => e.seq),
      'B sent every seq once, in order',
    ).toEqual(seen.map((_, i) => i));
    const stored = await storedLog(b!.base, id);
    expect(stored.map((e) => canonical(e.json))).toEqual(seen.map((e) => canonical(e.json)));

    // A swap that brings a key to a run executing elsewhere is refused, saying to fork with the key.
    const elsewhere = await post(`${a!.base}/runs`, keyedBody(chosen.baseUrl, 42, [1, 2, 3, 4], 20));
    const { id: cut } = (await elsewhere.json()) as { id: string };
    const swap = await post(`${b!.base}/runs/${cut}/control`, {
      action: 'swap',
      vendor: 'anthropic',
      model: 'claude-sim-sonnet',
      apiKey: canaries.request,
    });
    expect(swap.status).toBe(400);
    expect(await swap.text()).toMatch(/fork the run from this point with it/);

    // A SIGKILLed while it executes the run: the run ends, saying why, through B.
    const cutSeen: Received[] = [];
    const cutReading = follow(b!.base, cut, cutSeen);
    await until('B sends three events of the second run', () => cutSeen.length >= 3);
    await kill(a!.child);
    await cutReading;
    const end = JSON.parse(cutSeen.at(-1)!.json) as { event: string; reason: string; message: string };
    expect(end).toMatchObject({ event: 'terminate', reason: 'server_restart' });
    expect(end.message).toMatch(/its own API key, which lived only in the memory of that process/);
    expect(end.message).toMatch(/fork this one from its last turn, with the key/);
    expect(cutSeen.map((e) => e.seq)).toEqual(cutSeen.map((_, i) => i));

    // The key's bytes nowhere: Redis, the store's files (and Redis's dump beside them), every process's output.
    const inRedis = await redisText(redis.url);
    expect(inRedis.keys).toBeGreaterThan(0);
    expect(countCanaries(inRedis.text, allCanaries(canaries)), 'canaries in Redis').toBe(0);
    expect(fs.existsSync(path.join(dir, 'dump.rdb'))).toBe(true);
    const files = scanFolder({ dir, canaries: allCanaries(canaries) });
    expect(files.files).toBeGreaterThan(1);
    expect(files.hits, 'canaries in the store and the Redis dump').toBe(0);
    for (const process of [a!, b!, ...workers, redis])
      expect(countCanaries(process.output(), allCanaries(canaries)), 'canaries in a process output').toBe(0);
    expect(standIns.envNamed.anthropic.keysReceived).not.toContain(canaries.request);
  }, 600_000);
});
