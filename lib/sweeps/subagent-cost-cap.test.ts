import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { createSqliteRunStore, createSqliteSweepStore } from '@/lib/store';
import { executeSweep } from './execute-sweep';
import { createLocalPool } from './local-pool';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-subagent-cap-'));
const runStore = createSqliteRunStore({ dir });
const sweepStore = createSqliteSweepStore({ dir });
afterAll(async () => {
  await runStore.close();
  await sweepStore.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a sweep's cost cap counts what its runs' sub-agents spent", () => {
  it('spent is each run’s own cost plus its children’s, as the cap must bound', async () => {
    const grid = SweepGridSchema.parse({
      configurations: [{ id: 'delegating', preset: 'codesmith', recovery: { tools: { delegate: true } } }],
      seeds: [1, 2],
      costCapUsd: 100,
    });
    const runner = createLocalPool({ workers: 1 });
    try {
      const outcome = await executeSweep({ sweepId: 'sw-subagent-cap', grid, runner, runStore, sweepStore });
      expect(outcome.status).toBe('completed');
      const { metrics } = outcome;
      expect(metrics).toHaveLength(2);
      const children = metrics.reduce((s, m) => s + (m.subagent_usd ?? 0), 0);
      expect(children).toBeGreaterThan(0);
      const own = metrics.reduce((s, m) => s + m.usd, 0);
      // What the sweep's row says it spent, as the list, its page and the cap read it.
      const stored = await sweepStore.getSweep('sw-subagent-cap');
      expect(stored!.summary.spent_usd).toBeCloseTo(own + children, 12);
    } finally {
      await runner.close();
    }
  }, 120_000);
});
