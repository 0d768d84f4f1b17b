import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { createSqliteRunStore, createSqliteSweepStore, type RunStore, type SweepStore } from '@/lib/store';
import { executeSweep } from './execute-sweep';
import { SMALL_GRID } from './execute-sweep-grid.testkit';
import { expandGrid } from './expand-grid';
import { createLocalPool } from './local-pool';
import { runSweepJob, sweepRunId } from './run-sweep-job';

let dir: string;
let runStore: RunStore;
let sweepStore: SweepStore;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-sweep-'));
  runStore = createSqliteRunStore({ dir });
  sweepStore = createSqliteSweepStore({ dir });
});
afterAll(async () => {
  await runStore.close();
  await sweepStore.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('executeSweep on the local worker pool', () => {
  it('gives the same table twice, stores every run with its sweep id, and says who wins', async () => {
    const grid = SweepGridSchema.parse(SMALL_GRID);
    const runner = createLocalPool({ workers: 2 });
    try {
      const first = await executeSweep({ sweepId: 'sw-a', grid, runner, runStore, sweepStore });
      const second = await executeSweep({ sweepId: 'sw-b', grid, runner, runStore, sweepStore });
      expect(first.status).toBe('completed');
      expect(first.rows).toHaveLength(4);
      expect(first.rows.every((r) => r.runs === 5)).toBe(true);
      expect(second.rows).toEqual(first.rows);

      // Under two overloads CodeSmith's retries finish every run; naive's first error ends it.
      const row = (config: string, plan: string) =>
        first.rows.find((r) => r.config === config && r.fault_plan === plan)!;
      expect(row('codesmith', 'overloaded-x2').completion_rate).toBe(1);
      expect(row('naive', 'overloaded-x2').completion_rate).toBe(0);
      expect(row('naive', 'overloaded-x2').errors_seen).toBe(5);
      expect(row('codesmith', 'overloaded-x2').median_ms).toBeGreaterThan(
        row('codesmith', 'none').median_ms!,
      );

      const stored = (await sweepStore.getSweep('sw-a'))!;
      expect(stored.summary).toMatchObject({ status: 'completed', done: 20, total: 20, runner: 'local' });
      expect(await sweepStore.readSweepMetrics('sw-a')).toEqual(first.metrics);
      const runs = await runStore.listRuns({ sweepId: 'sw-a', limit: 100 });
      expect(runs).toHaveLength(20);
      expect((await runStore.readEvents({ runId: runs[0]!.id })).at(-1)?.event).toBe('terminate');
      // A stored run reads exactly as the same job run here: a worker's log arrives whole and unchanged.
      const job = expandGrid(grid)[13]!;
      const here = await runSweepJob({ sweepId: 'sw-a', job });
      expect(await runStore.readEvents({ runId: sweepRunId('sw-a', 13) })).toEqual(
        here.log.bodies.map((json) => JSON.parse(json) as unknown),
      );
      expect((await runStore.getRun(sweepRunId('sw-a', 13)))!.summary).toMatchObject({
        event_count: here.log.bodies.length,
        duration_ms: here.metrics.duration_ms,
        input_tokens: here.metrics.input_tokens,
        complete: here.metrics.complete,
      });
      // Sweep runs stay out of the playground's run list.
      expect((await runStore.listRuns()).some((r) => r.id.startsWith('sw-a'))).toBe(false);
    } finally {
      await runner.close();
    }
  }, 180_000);

  it('stops the workers when cancelled and marks the sweep cancelled', async () => {
    const grid = SweepGridSchema.parse({ ...SMALL_GRID, seeds: { from: 1, to: 100 } });
    const runner = createLocalPool({ workers: 2 });
    const cancel = new AbortController();
    let after = 0;
    try {
      const outcome = await executeSweep({
        sweepId: 'sw-cancel',
        grid,
        runner,
        runStore,
        sweepStore,
        signal: cancel.signal,
        onProgress: ({ summary }) => {
          if (cancel.signal.aborted && summary.status === 'running') after += 1;
          if (summary.done === 3) cancel.abort();
        },
      });
      expect(outcome.status).toBe('cancelled');
      expect(after).toBe(0);
      const stored = (await sweepStore.getSweep('sw-cancel'))!.summary;
      expect(stored.status).toBe('cancelled');
      expect(stored.done).toBe(3);
      expect(await runStore.listRuns({ sweepId: 'sw-cancel', limit: 1000 })).toHaveLength(3);
    } finally {
      await runner.close();
    }
  }, 180_000);
});

describe("a key pasted into a sweep's grid", () => {
  const KEY = 'sk-proj-SweepCanary-0123456789abcdef';

  it('is stored nowhere: not in the sweep row, its grid, a run config or a run log', async () => {
    vi.stubEnv('OPENAI_API_KEY', KEY);
    try {
      const grid = SweepGridSchema.parse({
        name: `paste ${KEY}`,
        configurations: [{ id: 'codesmith', label: `system prompt: use ${KEY}`, preset: 'codesmith' }],
        faultPlans: [{ id: 'none', label: `key ${KEY}` }],
        seeds: [1, 2],
      });
      const runner = createLocalPool({ workers: 1 });
      try {
        await executeSweep({ sweepId: 'sw-key', grid, runner, runStore, sweepStore });
      } finally {
        await runner.close();
      }
      const record = (await sweepStore.getSweep('sw-key'))!;
      expect(record.summary.name).toBe('paste [redacted]');
      expect(record.grid.configurations[0]!.label).toBe('system prompt: use [redacted]');
      const runs = await runStore.listRuns({ sweepId: 'sw-key', limit: 10 });
      expect(runs).toHaveLength(2);
      const stored = JSON.stringify([
        record,
        runs,
        await Promise.all(
          runs.map(async (r) => [await runStore.getRun(r.id), await runStore.readEvents({ runId: r.id })]),
        ),
      ]);
      expect(stored).toContain('[redacted]');
      expect(stored).not.toContain(KEY);
      expect(stored).not.toContain('SweepCanary');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
