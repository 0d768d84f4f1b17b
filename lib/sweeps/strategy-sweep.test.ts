import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateRunBodySchema } from '@/lib/protocol/http/runs';
import { CreateSweepBodySchema } from '@/lib/protocol/http/sweeps';
import { STRATEGY_NOT_FROM_WEB, SweepGridSchema, type RunEvent } from '@/lib/protocol';
import { pinStrategy } from '@/lib/runtime/load-strategy';
import { createSqliteRunStore, createSqliteSweepStore, type RunStore, type SweepStore } from '@/lib/store';
import { executeSweep } from './execute-sweep';
import { createLocalPool } from './local-pool';

const EXAMPLE = 'docs/examples/strategies/give-up-after-two-overloads.ts';

/** Three overloaded answers on the first request's attempts: the preset retries through them. */
const GRID = {
  configurations: [
    { id: 'codesmith', preset: 'codesmith' },
    { id: 'give-up', preset: 'codesmith', strategy: { file: EXAMPLE } },
  ],
  faultPlans: [
    {
      id: 'overloaded-x3',
      plan: {
        rules: [
          {
            id: 'o',
            when: { kind: 'requests', numbers: [1, 2, 3] },
            action: { type: 'http_error', status: 529 },
          },
        ],
      },
    },
  ],
  seeds: [1, 2],
};

let dir: string;
let runStore: RunStore;
let sweepStore: SweepStore;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-strategy-'));
  runStore = createSqliteRunStore({ dir });
  sweepStore = createSqliteSweepStore({ dir });
});
afterAll(async () => {
  await runStore.close();
  await sweepStore.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a strategy of one’s own in a sweep', () => {
  it('runs beside a preset on the worker pool: its decisions are events, its file and hash are in each run’s config', async () => {
    const pinned = pinStrategy(EXAMPLE);
    const grid = SweepGridSchema.parse({
      ...GRID,
      configurations: GRID.configurations.map((c) => (c.strategy ? { ...c, strategy: pinned } : c)),
    });
    const runner = createLocalPool({ workers: 2 });
    try {
      const outcome = await executeSweep({ sweepId: 'sw-strategy', grid, runner, runStore, sweepStore });
      expect(outcome.status).toBe('completed');
      const row = (config: string) => outcome.rows.find((r) => r.config === config)!;
      expect(row('codesmith').completion_rate).toBe(1);
      expect(row('give-up').completion_rate).toBe(0);

      const runs = await runStore.listRuns({ sweepId: 'sw-strategy', limit: 10 });
      expect(runs).toHaveLength(4);
      const logs: RunEvent[][] = await Promise.all(runs.map((r) => runStore.readEvents({ runId: r.id })));
      const withStrategy = logs.filter((log) => {
        const start = log[0];
        return start?.event === 'run_start' && start.config.strategy !== undefined;
      });
      expect(withStrategy).toHaveLength(2);
      for (const log of withStrategy) {
        const start = log[0] as Extract<RunEvent, { event: 'run_start' }>;
        expect(start.config.strategy).toEqual({ file: EXAMPLE, sha256: pinned.sha256 });
        const decisions = log.filter((e) => e.event === 'mechanism_decision');
        expect(decisions).toMatchObject([
          {
            mechanism: 'strategy:give-up-after-two-overloads',
            hook: 'onError',
            decision: 'give_up',
            next: 'surface',
            why: '2 overloaded answers in a row: this strategy gives up on the call instead of retrying',
          },
        ]);
        const end = log.at(-1)!;
        expect(end).toMatchObject({ event: 'terminate', reason: 'model_error', complete: false });
        expect(end.seq).toBeGreaterThan(decisions[0]!.seq);
      }
      for (const log of logs.filter((l) => !withStrategy.includes(l)))
        expect(log.some((e) => e.event === 'mechanism_decision')).toBe(false);
    } finally {
      await runner.close();
    }
  });

  it('is never loadable through the web API: a run or sweep that names one is refused, saying why', () => {
    const run = CreateRunBodySchema.safeParse({
      config: { provider: { vendor: 'sim-anthropic' }, strategy: pinStrategy(EXAMPLE) },
    });
    expect(run.success).toBe(false);
    expect(run.error!.issues).toContainEqual(
      expect.objectContaining({ path: ['config', 'strategy'], message: STRATEGY_NOT_FROM_WEB }),
    );
    const sweep = CreateSweepBodySchema.safeParse(GRID);
    expect(sweep.success).toBe(false);
    expect(sweep.error!.issues).toContainEqual(
      expect.objectContaining({ path: ['configurations', 1, 'strategy'], message: STRATEGY_NOT_FROM_WEB }),
    );
  });
});
