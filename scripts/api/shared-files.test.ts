import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '@/lib/testing/postgres-cluster';
import { LOOKUP_TABLE_FIX, REAL_FIX, squareTask, writeTaskFolder } from '@/lib/testing/task-folders';
import { readTaskFiles } from '@/lib/tools';
import { killAll, serve, startRedis, startRun, startWorker, type Started } from './processes.testkit';
import { follow, storedLog, type Received } from './run-stream.testkit';

/**
 * Several machines on one store: two web instances and two queue workers, each on a data folder
 * of its own (as on machines of their own), sharing a real Postgres and a redis-server. A task
 * folder uploaded through instance A is run by a worker, which has only the store to read it
 * from, to the verdict its files make; a worker's run is saved as a cassette through instance B,
 * which never held its traffic, and the cassette replays it to the same answers.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-shared-files-'));
let cluster: PostgresCluster | undefined;
afterAll(async () => {
  killAll();
  await cluster?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A data folder of its own: one machine's. */
const machine = (name: string): string => fs.mkdtempSync(path.join(root, `${name}-`));

interface Upload {
  id: string;
  sha256: string;
  task_id: string;
}

async function upload(base: string, name: string, fix: string): Promise<Upload> {
  const files = readTaskFiles(writeTaskFolder(name, squareTask({ fix })));
  const response = await fetch(`${base}/tasks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, files }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Upload;
}

const configOf = (task: Upload, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  provider: { vendor: 'sim-anthropic' },
  clock: 'virtual',
  seed: 3,
  scenario: task.task_id,
  taskUpload: { id: task.id, sha256: task.sha256 },
  ...over,
});

interface Event {
  event: string;
  verdict?: string;
  hidden_failed?: string[];
  message?: string;
  reason?: string;
}

/** Follows a run to its end through `base`; its events as that instance sent them. */
async function runOn(base: string, id: string): Promise<Event[]> {
  const seen: Received[] = [];
  await follow(base, id, seen);
  return seen.map((e) => JSON.parse(e.json) as Event);
}

const said = (events: Event[]): string[] =>
  events.flatMap((e) =>
    e.event === 'llm_call' ? [JSON.stringify((e as { message?: unknown }).message)] : [],
  );

describe('uploaded tasks and saved cassettes on several machines sharing one store', () => {
  let a: Started;
  let b: Started;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const databaseUrl = await cluster.createDatabase();
    const redis = await startRedis(machine('redis'));
    const env = { LOOP_LAB_REDIS_URL: redis.url, LOOP_LAB_DATABASE_URL: databaseUrl };
    // One after another: each compiles the project as it starts, on a busy machine.
    a = await serve(machine('a'), env);
    b = await serve(machine('b'), env);
    for (const name of ['w1', 'w2']) await startWorker(machine(name), env);
  }, 300_000);

  const verdict = (events: Event[]): Event | undefined => events.find((e) => e.event === 'task_verdict');

  it('a task folder uploaded through A runs on a worker, which has only the store, to the verdict its files make', async () => {
    const real = await upload(a.base, 'square-real', REAL_FIX);
    const lookup = await upload(a.base, 'square', LOOKUP_TABLE_FIX);
    const [realId, lookupId] = await Promise.all([
      startRun(a.base, configOf(real)),
      startRun(a.base, configOf(lookup)),
    ]);
    const [realRun, lookupRun] = await Promise.all([runOn(b.base, realId), runOn(b.base, lookupId)]);
    expect(verdict(realRun), JSON.stringify(realRun.at(-1))).toMatchObject({ verdict: 'done' });
    expect(verdict(lookupRun), JSON.stringify(lookupRun.at(-1))).toMatchObject({
      verdict: 'not_done',
      hidden_failed: ['squares 7', 'squares -4'],
    });
    // The hash still pins the files: a config naming other files is refused, on either instance.
    const changed = await fetch(`${b.base}/runs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        config: configOf(real, { taskUpload: { id: real.id, sha256: 'f'.repeat(64) } }),
      }),
    });
    expect(changed.status).toBe(400);
    expect(await changed.text()).toMatch(/taskUpload\.sha256: the upload .* holds files with sha256/);
  }, 240_000);

  it('a run a worker executed is saved as a cassette through B, which never held its traffic, and replays to the same answers', async () => {
    const config = { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed: 8 };
    const id = await startRun(a.base, config);
    const original = await runOn(b.base, id);
    const saved = await fetch(`${b.base}/runs/${id}/cassette`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'from a worker' }),
    });
    expect(saved.status, await saved.clone().text()).toBe(201);
    const cassette = (await saved.json()) as { id: string; exchanges: number };
    const requests = original.filter((e) => e.event === 'model_request').length;
    expect(requests).toBeGreaterThan(1);
    expect(cassette.exchanges).toBe(requests);

    const replayId = await startRun(a.base, { ...config, replay: { cassette: cassette.id } });
    const replay = await runOn(b.base, replayId);
    expect(replay.filter((e) => e.event === 'off_recording')).toEqual([]);
    expect(replay.at(-1)).toMatchObject({ event: 'terminate' });
    expect(said(replay)).toEqual(said(original));
    expect(verdict(replay)?.verdict).toBe(verdict(original)?.verdict);
    expect((await storedLog(a.base, replayId)).length).toBe(replay.length);
  }, 240_000);
});
