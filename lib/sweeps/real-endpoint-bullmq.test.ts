import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
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
import { startLocalRedis, type LocalRedis } from '@/lib/testing/local-redis';
import { startQueueWorkers, stopQueueWorkers } from './queue-workers.testkit';

/**
 * The same sweep over a real endpoint through BullMQ: a redis-server, two `npm run worker`
 * processes that read the endpoint's address and key from their own environment, and one
 * limiter in Redis that holds both of them to N requests a minute and to a 429's Retry-After.
 */
const KEY = 'sk-worker-env-key-5521-secret';
const SCALE = 0.02;
const PER_MIN = 4;
const RETRY_AFTER_S = 60;
const JITTER_MS = 100;

let redis: LocalRedis;
let url: string;
const workers: ChildProcess[] = [];
let runStore: RunStore;
let sweepStore: SweepStore;
let promptSetStore: PromptSetStore;
let endpoint: Awaited<ReturnType<typeof startCountingEndpoint>>;

beforeAll(async () => {
  redis = await startLocalRedis('bullmq-real');
  url = redis.url;
  endpoint = await startCountingEndpoint({ rateLimitAt: 3, retryAfterS: RETRY_AFTER_S });
  // The workers' own environment names the endpoint and holds its key: nothing of it goes through Redis.
  await startQueueWorkers(workers, url, { OPENAI_BASE_URL: endpoint.url, OPENAI_API_KEY: KEY });
  runStore = createSqliteRunStore({ dir: redis.dir });
  sweepStore = createSqliteSweepStore({ dir: redis.dir });
  promptSetStore = createSqlitePromptSetStore({ dir: redis.dir });
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
  await stopQueueWorkers(workers);
  await endpoint?.stop();
  await runStore?.close();
  await sweepStore?.close();
  await promptSetStore?.close();
  redis?.stop();
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
    const reopened = createSqliteSweepStore({ dir: redis.dir });
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
    for (const file of fs.readdirSync(redis.dir).filter((f) => !f.endsWith('.rdb'))) {
      const p = path.join(redis.dir, file);
      if (fs.statSync(p).isFile()) expect(fs.readFileSync(p).includes(KEY), file).toBe(false);
    }
  }, 300_000);
});
