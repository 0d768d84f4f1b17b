import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { readPromptSets } from './expand-grid';
import {
  createSqlitePromptSetStore,
  createSqliteRunStore,
  createSqliteSweepStore,
  type PromptSetStore,
  type RunStore,
  type SweepStore,
} from '@/lib/store';
import { createBullmqRunner } from './bullmq-runner';
import { executeSweep, type SweepProgress } from './execute-sweep';
import { expectEndpointLimitsHeld } from './endpoint-limits.testkit';
import { startCountingEndpoint } from './real-endpoint.testkit';
import { freePort, waitFor } from '@/lib/testing/local-process';

/**
 * The same sweep over a real endpoint through BullMQ: a redis-server, two `npm run worker`
 * processes that read the endpoint's address and key from their own environment, and one
 * limiter in Redis that holds both of them to N requests a minute and to a 429's Retry-After.
 */
const REDIS = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
const KEY = 'sk-worker-env-key-5521-secret';
const SCALE = 0.02;
const PER_MIN = 4;
const RETRY_AFTER_S = 60;
const JITTER_MS = 100;

let dir: string;
let redis: ChildProcess;
let url: string;
const workers: ChildProcess[] = [];
let runStore: RunStore;
let sweepStore: SweepStore;
let promptSetStore: PromptSetStore;
let endpoint: Awaited<ReturnType<typeof startCountingEndpoint>>;

beforeAll(async () => {
  if (!fs.existsSync(REDIS))
    throw new Error(`${REDIS} is missing: install the Debian package redis-server (.ci/run does)`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-bullmq-real-'));
  endpoint = await startCountingEndpoint({ rateLimitAt: 3, retryAfterS: RETRY_AFTER_S });
  const port = await freePort();
  url = `redis://127.0.0.1:${port}`;
  let redisOut = '';
  redis = spawn(
    REDIS,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  redis.stdout!.on('data', (d: Buffer) => (redisOut += d.toString()));
  await waitFor(() => /Ready to accept connections/.test(redisOut), 'redis-server to start', 20_000);
  for (let i = 0; i < 2; i += 1) {
    let out = '';
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'lib/sweeps/queue-worker-main.ts', '--workers', '1'],
      {
        // The workers' own environment names the endpoint and holds its key: nothing of it goes through Redis.
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NODE_ENV: 'test',
          LOOP_LAB_REDIS_URL: url,
          OPENAI_BASE_URL: endpoint.url,
          OPENAI_API_KEY: KEY,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    workers.push(child);
    await waitFor(() => /worker: 1 thread on queue/.test(out), `worker ${i + 1} to connect`);
  }
  runStore = createSqliteRunStore({ dir });
  sweepStore = createSqliteSweepStore({ dir });
  promptSetStore = createSqlitePromptSetStore({ dir });
  await promptSetStore.savePromptSet({
    name: 'terse',
    system: 'Be terse. Run the check first.',
    task: '',
    toolDescriptions: {},
  });
  await promptSetStore.savePromptSet({
    name: 'terse',
    system: 'Be terse. Read the failing test first.',
    task: '',
    toolDescriptions: {},
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(
    workers.map(
      (w) => new Promise((r) => (w.exitCode !== null ? r(null) : (w.once('exit', r), w.kill('SIGTERM')))),
    ),
  );
  redis?.kill('SIGTERM');
  await endpoint?.stop();
  await runStore?.close();
  await sweepStore?.close();
  await promptSetStore?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a sweep over a real endpoint through BullMQ', () => {
  it('two worker processes share one limiter in Redis: N requests a minute at the endpoint, and the 429 pause', async () => {
    const grid = SweepGridSchema.parse({
      configurations: [{ id: 'codesmith', preset: 'codesmith' }],
      vendors: [],
      endpoints: [{ id: 'local', vendor: 'openai-compatible', requestsPerMin: PER_MIN }],
      models: ['gpt-4o-mini', 'deepseek-chat'],
      promptSets: [
        { name: 'terse', version: 1 },
        { name: 'terse', version: 2 },
      ],
      seeds: [1, 2],
      timeScale: SCALE,
    });
    const runner = await createBullmqRunner({ redisUrl: url });
    const frames: SweepProgress[] = [];
    let outcome;
    try {
      outcome = await executeSweep({
        sweepId: 'sw-real-redis',
        grid,
        runner,
        runStore,
        sweepStore,
        promptSets: await readPromptSets(grid, (ref) => promptSetStore.getPromptSet(ref.name, ref.version)),
        onProgress: (p) => frames.push(p),
      });
    } finally {
      await runner.close();
    }
    expect(outcome.message).toBeUndefined();
    expect(outcome.status).toBe('completed');
    expect(outcome.rows.map((r) => [r.model, r.prompt_set, r.runs])).toEqual([
      ['gpt-4o-mini', 'terse v1', 2],
      ['gpt-4o-mini', 'terse v2', 2],
      ['deepseek-chat', 'terse v1', 2],
      ['deepseek-chat', 'terse v2', 2],
    ]);
    expectEndpointLimitsHeld(endpoint.seen, {
      key: KEY,
      systemPrompts: ['Be terse. Run the check first.', 'Be terse. Read the failing test first.'],
      scale: SCALE,
      perMin: PER_MIN,
      retryAfterS: RETRY_AFTER_S,
      jitterMs: JITTER_MS,
    });
    const last = frames.at(-1)!.summary;
    expect(last.notes?.join('\n')).toMatch(
      /endpoint "local" paused for 60 s: it answered 429 with Retry-After 60 s/,
    );
    // The lines came back with the jobs' results and were stored with the sweep: a restarted server reads the same.
    const reopened = createSqliteSweepStore({ dir });
    try {
      expect((await reopened.getSweep('sw-real-redis'))!.summary).toMatchObject({
        notes: last.notes,
        spent_usd: last.spent_usd,
      });
    } finally {
      await reopened.close();
    }
    // The queue's jobs and the stored rows hold no key.
    expect(JSON.stringify(await sweepStore.getSweep('sw-real-redis'))).not.toContain(KEY);
    for (const file of fs.readdirSync(dir).filter((f) => !f.endsWith('.rdb'))) {
      const p = path.join(dir, file);
      if (fs.statSync(p).isFile()) expect(fs.readFileSync(p).includes(KEY), file).toBe(false);
    }
  }, 300_000);
});
