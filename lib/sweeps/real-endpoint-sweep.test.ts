import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SweepProgressBar } from '@/components/sweeps/sweep-progress';
import { SweepGridSchema, type SweepGridInput, type SweepSummary } from '@/lib/protocol';
import { SweepFrameSchema, type SweepFrame } from '@/lib/protocol/http';
import { createSweepRegistry } from '@/lib/server/sweep-registry';
import { createSweepSseResponse, encodeSweepFrame } from '@/lib/server/sweep-sse-response';
import {
  createSqliteCassetteStore,
  createSqlitePromptSetStore,
  createSqliteRunStore,
  createSqliteSweepStore,
  type CassetteStore,
  type PromptSetStore,
  type RunStore,
  type SweepStore,
} from '@/lib/store';
import { worstRunUsd } from './cost-cap';
import { executeSweep, type SweepProgress } from './execute-sweep';
import { expandGrid, type PromptSetLookup } from './expand-grid';
import { createLocalPool } from './local-pool';
import { expectEndpointLimitsHeld } from './endpoint-limits.testkit';
import { startCountingEndpoint } from './real-endpoint.testkit';
import { storedSweepCassettes } from './sweep-cassettes';
import { validateSweepGrid } from './validate-grid';
import { formatUsd } from '@/lib/run-view/format';

/**
 * A sweep over a real endpoint, as a person runs one: an OpenAI-compatible server written here
 * counts every request with its time; the sweep's limit of N requests a minute holds at the
 * server, a 429 with Retry-After pauses the endpoint for every run, the cost cap stops the
 * sweep, two prompt-set versions and two models reach the server, the key sent with the sweep
 * is used and kept nowhere, and a rerun from the recorded cassettes runs with the server gone.
 * Run time is scaled (timeScale 0.02: a minute is 1.2 s of wall time), so the limiter's minute,
 * the Retry-After and the runs' own waits are all short.
 */
const KEY = 'sk-sweep-request-key-8231-secret';
const SCALE = 0.02;
const PER_MIN = 4;
/** Longer than the limiter's minute, so the pause is seen apart from the limit however fast the first requests went. */
const RETRY_AFTER_S = 180;
/** Wall ms a request may take from the limiter to the server (loopback, on a busy machine). */
const JITTER_MS = 100;

let dir: string;
let runStore: RunStore;
let sweepStore: SweepStore;
let promptSetStore: PromptSetStore;
let cassetteStore: CassetteStore;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-real-sweep-'));
  runStore = createSqliteRunStore({ dir });
  sweepStore = createSqliteSweepStore({ dir });
  promptSetStore = createSqlitePromptSetStore({ dir });
  cassetteStore = createSqliteCassetteStore({ dir });
  await promptSetStore.savePromptSet({
    name: 'check-first',
    system: 'You fix code. Run the check before anything else.',
    task: '',
    toolDescriptions: {},
  });
  await promptSetStore.savePromptSet({
    name: 'check-first',
    system: 'You fix code. Run the check first, then read only what failed.',
    task: '',
    toolDescriptions: {},
  });
  const saved = [
    await promptSetStore.getPromptSet('check-first', 1),
    await promptSetStore.getPromptSet('check-first', 2),
  ];
  promptSets = (ref) => saved.find((set) => set?.name === ref.name && set.version === ref.version);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  for (const store of [runStore, sweepStore, promptSetStore, cassetteStore]) await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The saved versions, read from the store once they are saved (as a sweep's caller reads them). */
let promptSets: PromptSetLookup;

/** A frame as the sweep page parses it from its progress stream. */
function frameOf(sse: string): SweepFrame {
  const data = sse.split('\n').find((line) => line.startsWith('data: '));
  return SweepFrameSchema.parse(JSON.parse(data!.slice('data: '.length)));
}

/**
 * The sweep as a restarted server shows it: the stores opened again on the same data folder,
 * and what the list, the sweep's page and its progress stream's first frame read from them.
 */
async function afterRestart(
  sweepId: string,
): Promise<{ stored: SweepSummary; listed: SweepSummary | undefined; first: SweepFrame }> {
  const runs = createSqliteRunStore({ dir });
  const sweeps = createSqliteSweepStore({ dir });
  try {
    const registry = createSweepRegistry({
      runStore: runs,
      sweepStore: sweeps,
      runnerKind: 'local',
      createRunner: () => Promise.reject(new Error('no sweep runs after the restart')),
    });
    const response = await createSweepSseResponse({ registry, sweepId });
    return {
      stored: (await registry.read(sweepId))!.sweep,
      listed: (await registry.list()).find((s) => s.id === sweepId),
      first: frameOf(await response.text()),
    };
  } finally {
    await runs.close();
    await sweeps.close();
  }
}

/** What the sweep page draws for a frame: the progress bar with the spend, the message and the endpoints' lines. */
const drawn = (frame: SweepFrame): string => renderToStaticMarkup(createElement(SweepProgressBar, { frame }));

function gridFor(url: string, extra: Partial<SweepGridInput> = {}): SweepGridInput {
  return {
    name: 'real endpoint',
    configurations: [{ id: 'codesmith', preset: 'codesmith' }],
    vendors: [],
    endpoints: [
      {
        id: 'local',
        vendor: 'openai-compatible',
        baseUrl: url,
        keySource: 'request',
        requestsPerMin: PER_MIN,
      },
    ],
    models: ['gpt-4o-mini', 'deepseek-chat'],
    promptSets: [
      { name: 'check-first', version: 1 },
      { name: 'check-first', version: 2 },
    ],
    seeds: [1, 2],
    timeScale: SCALE,
    costCapUsd: 100,
    ...extra,
  };
}

describe('a sweep over a real endpoint, on the local pool', () => {
  it('holds the endpoint to N requests a minute, pauses it on a 429 Retry-After, varies prompts and models, and keeps no key', async () => {
    const endpoint = await startCountingEndpoint({ rateLimitAt: 3, retryAfterS: RETRY_AFTER_S });
    const grid = SweepGridSchema.parse(gridFor(endpoint.url));
    // A loopback address is refused unless the environment allows it, as for a run.
    expect(validateSweepGrid(grid, { apiKeys: { local: KEY }, promptSets, env: {} }).join('\n')).toMatch(
      /endpoints\.0\.baseUrl: .*LOOP_LAB_ALLOWED_REQUEST_HOSTS/,
    );
    vi.stubEnv('LOOP_LAB_ALLOWED_REQUEST_HOSTS', endpoint.host);
    expect(validateSweepGrid(grid, { apiKeys: { local: KEY }, promptSets })).toEqual([]);
    // A key sent with a sweep never reaches a BullMQ queue.
    expect(
      validateSweepGrid(grid, { apiKeys: { local: KEY }, promptSets, runnerKind: 'bullmq' }).join('\n'),
    ).toMatch(/keySource: a key sent with a sweep/);

    const runner = createLocalPool({ workers: 1 });
    const frames: SweepProgress[] = [];
    try {
      const outcome = await executeSweep({
        sweepId: 'sw-real',
        grid,
        runner,
        runStore,
        sweepStore,
        apiKeys: { local: KEY },
        promptSets,
        cassettes: storedSweepCassettes(cassetteStore),
        onProgress: (p) => frames.push(p),
      });
      expect(outcome.message).toBeUndefined();
      expect(outcome.status).toBe('completed');
      // Two models × two prompt-set versions: four rows, two seeds each, each compared by its own axes.
      expect(outcome.rows.map((r) => [r.model, r.prompt_set, r.runs])).toEqual([
        ['gpt-4o-mini', 'check-first v1', 2],
        ['gpt-4o-mini', 'check-first v2', 2],
        ['deepseek-chat', 'check-first v1', 2],
        ['deepseek-chat', 'check-first v2', 2],
      ]);
      expect(outcome.metrics.every((m) => m.complete)).toBe(true);
    } finally {
      await runner.close();
      await endpoint.stop();
    }

    const { seen } = endpoint;
    // Both models and both prompts with the sweep's key; no minute held more than the limit; nothing during the 429's pause.
    const { limited, pauseMs } = expectEndpointLimitsHeld(seen, {
      key: KEY,
      systemPrompts: [
        'You fix code. Run the check before anything else.',
        'You fix code. Run the check first, then read only what failed.',
      ],
      scale: SCALE,
      perMin: PER_MIN,
      retryAfterS: RETRY_AFTER_S,
      jitterMs: JITTER_MS,
    });
    // Without the pause the limiter alone would have let the fifth request go a minute after the first: inside the pause.
    expect(seen[0]!.at + 60_000 * SCALE).toBeLessThan(seen[limited]!.at + pauseMs - JITTER_MS);
    const last = frames.at(-1)!.summary;
    expect(last.notes?.join('\n')).toMatch(
      /endpoint "local" paused for 3 min: it answered 429 with Retry-After 3 min/,
    );

    // After a restart the sweep says what it said live: its pause line, what it spent against which cap.
    const { stored, listed, first } = await afterRestart('sw-real');
    for (const summary of [stored, listed!, first]) {
      expect(summary.notes).toEqual(last.notes);
      expect(summary.cost_cap_usd).toBe(100);
      expect(summary.spent_usd).toBe(last.spent_usd);
    }
    // What it spent is what its stored runs cost.
    expect(stored.spent_usd).toBeGreaterThan(0);
    expect(stored.spent_usd).toBeCloseTo(
      (await runStore.listRuns({ sweepId: 'sw-real' })).reduce((sum, run) => sum + run.usd, 0),
      12,
    );
    expect(drawn(first)).toBe(drawn(frameOf(encodeSweepFrame(frames.at(-1)!))));
    expect(drawn(first)).toMatch(/data-testid="sweep-notes".*paused for 3 min/);

    // The key is in no stored byte: the sweep's row, the runs' configs and events, the cassettes.
    for (const file of fs.readdirSync(dir)) {
      expect(fs.readFileSync(path.join(dir, file)).includes(KEY), file).toBe(false);
    }
    expect(JSON.stringify(await sweepStore.getSweep('sw-real'))).not.toContain(KEY);

    // Every run was recorded: a rerun replays the cassettes with the server gone, and costs nothing there.
    expect(
      (await cassetteStore.listCassettes()).filter((c) => c.from_run?.startsWith('sw-real-')),
    ).toHaveLength(8);
    const before = seen.length;
    const rerun = SweepGridSchema.parse(
      gridFor(endpoint.url, {
        replayFrom: 'sw-real',
        endpoints: [
          { id: 'local', vendor: 'openai-compatible', baseUrl: endpoint.url, requestsPerMin: PER_MIN },
        ],
      }),
    );
    const replayRunner = createLocalPool({ workers: 1 });
    try {
      const replayed = await executeSweep({
        sweepId: 'sw-replay',
        grid: rerun,
        runner: replayRunner,
        runStore,
        sweepStore,
        promptSets,
        cassettes: storedSweepCassettes(cassetteStore),
      });
      expect(replayed.status).toBe('completed');
      expect(replayed.metrics.every((m) => m.complete)).toBe(true);
      expect(replayed.rows.map((r) => r.runs)).toEqual([2, 2, 2, 2]);
    } finally {
      await replayRunner.close();
    }
    expect(seen.length).toBe(before);
  }, 120_000);

  it('stops at its cost cap before a run that could pass it, and says so', async () => {
    const endpoint = await startCountingEndpoint();
    vi.stubEnv('LOOP_LAB_ALLOWED_REQUEST_HOSTS', endpoint.host);
    const grid = SweepGridSchema.parse(
      gridFor(endpoint.url, {
        models: ['gpt-4o-mini'],
        promptSets: [{ name: 'check-first', version: 1 }],
        seeds: { from: 1, to: 12 },
        costCapUsd: undefined,
        budgets: { maxIterations: 30, maxCostUsd: 0.01, maxRunMs: 600_000, maxAttempts: 50 },
      }),
    );
    // The cap: one run's worst case and half again, so the sweep goes on only while what it spent stays under half a worst case.
    const worst = worstRunUsd(expandGrid(grid, { promptSets })[0]!.config)!;
    const cap = worst * 1.5;
    const runner = createLocalPool({ workers: 1 });
    try {
      const outcome = await executeSweep({
        sweepId: 'sw-cap',
        grid: { ...grid, costCapUsd: cap },
        runner,
        runStore,
        sweepStore,
        apiKeys: { local: KEY },
        promptSets,
      });
      expect(outcome.status).toBe('stopped');
      expect(outcome.message).toMatch(
        /^cost cap: the sweep stopped before run \d+ of 12: \$[\d.]+ spent, and this run could cost up to \$[\d.]+ .*which could pass the \$[\d.]+ cap$/,
      );
      const spent = outcome.metrics.reduce((s, m) => s + m.usd, 0);
      expect(outcome.metrics.length).toBeGreaterThan(0);
      expect(outcome.metrics.length).toBeLessThan(12);
      expect(spent).toBeLessThanOrEqual(cap);
      // The next run's worst case is what would have passed it.
      expect(spent + worst).toBeGreaterThan(cap);
      const stored = (await sweepStore.getSweep('sw-cap'))!.summary;
      expect(stored.status).toBe('stopped');
      expect(stored.message).toBe(outcome.message);
      // After a restart it still says what it spent against which cap, beside why it stopped.
      const { first } = await afterRestart('sw-cap');
      expect(first).toMatchObject({
        status: 'stopped',
        message: outcome.message,
        spent_usd: spent,
        cost_cap_usd: cap,
      });
      expect(drawn(first)).toContain(`${formatUsd(spent)} spent of the ${formatUsd(cap)} cap`);
    } finally {
      await runner.close();
      await endpoint.stop();
    }
  }, 120_000);
});
