import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SweepGridSchema, type SweepRunMetrics } from '@/lib/protocol';
import { createSqliteRunStore, DB_FILE_NAME } from './sqlite-run-store';
import { createSqliteSweepStore } from './sqlite-sweep-store';
import { batchOf, sampleConfig, sampleRunEvents } from './sample-run.testkit';
import type { RunStore } from './run-store';
import { INTERRUPTED_SWEEP_MESSAGE, type SweepStore } from './sweep-store';

let dir: string;
let runs: RunStore;
let sweeps: SweepStore;
const grid = SweepGridSchema.parse({ configurations: [{ id: 'c', preset: 'codesmith' }], seeds: [1, 2] });
const metrics = (job: number): SweepRunMetrics => ({
  job,
  run_id: `s1-${job}`,
  key: 'c|fix-failing-test|none|sim-anthropic',
  seed: job + 1,
  complete: true,
  reason: 'end_turn',
  verdict: 'done',
  duration_ms: 1000,
  input_tokens: 10,
  output_tokens: 5,
  usd: 0.01,
  attempts: 1,
  failed_attempts: 0,
  wasted_tokens: 0,
  wasted_usd: 0,
  errors_seen: 0,
});

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-sweeps-'));
  runs = createSqliteRunStore({ dir });
  sweeps = createSqliteSweepStore({ dir });
});
afterEach(async () => {
  await runs.close();
  await sweeps.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sqlite sweep store', () => {
  it('keeps a sweep, its progress and its runs’ metrics, written with each run in one transaction', async () => {
    await sweeps.createSweep({ id: 's1', name: 'two seeds', grid, total: 2, runner: 'local', createdAt: 5 });
    await runs.createRun({
      id: 's1-1',
      config: sampleConfig(),
      ...batchOf(sampleRunEvents({ runId: 's1-1' })),
      sweep: { sweepId: 's1', job: 1, metrics: metrics(1) },
    });
    await runs.createRun({
      id: 's1-0',
      config: sampleConfig(),
      ...batchOf(sampleRunEvents({ runId: 's1-0' })),
      sweep: { sweepId: 's1', job: 0, metrics: metrics(0) },
    });
    await sweeps.updateSweep({ id: 's1', done: 2, elapsedMs: 40, status: 'completed', spentUsd: 0.02 });
    expect(await sweeps.getSweep('s1')).toEqual({
      grid,
      summary: {
        id: 's1',
        name: 'two seeds',
        created_at: new Date(5).toISOString(),
        status: 'completed',
        total: 2,
        done: 2,
        elapsed_ms: 40,
        runner: 'local',
        spent_usd: 0.02,
      },
    });
    expect(await sweeps.readSweepMetrics('s1')).toEqual([metrics(0), metrics(1)]);
    expect((await runs.listRuns({ sweepId: 's1' })).map((r) => r.id).sort()).toEqual(['s1-0', 's1-1']);
    expect(await runs.listRuns()).toEqual([]);
  });

  it("keeps what a sweep spent against its cap and its endpoints' lines, read back the same after the store is opened again", async () => {
    const capped = SweepGridSchema.parse({ ...grid, costCapUsd: 0.5 });
    await sweeps.createSweep({ id: 's1', name: 'capped', grid: capped, total: 2, runner: 'local' });
    const cost = [0.1, 0.2];
    for (const job of [1, 0])
      await runs.createRun({
        id: `s1-${job}`,
        config: sampleConfig(),
        ...batchOf(sampleRunEvents({ runId: `s1-${job}` })),
        sweep: { sweepId: 's1', job, metrics: { ...metrics(job), usd: cost[job]! } },
      });
    const lines = [
      'endpoint "local" paused for 3 min: it answered 429 with Retry-After 3 min; no run of the sweep sends to it until the pause ends (run s1-1)',
    ];
    await sweeps.updateSweep({ id: 's1', done: 1, elapsedMs: 20, notes: lines, spentUsd: 0.2 });
    // A later update without lines keeps them; the sweep's end writes its status and message beside them.
    await sweeps.updateSweep({
      id: 's1',
      done: 2,
      elapsedMs: 40,
      status: 'stopped',
      message: 'cost cap: stopped',
      spentUsd: 0.2 + 0.1,
    });
    await sweeps.updateSweep({ id: 's1', done: 2, elapsedMs: 40 });
    const live = (await sweeps.getSweep('s1'))!.summary;
    expect(live).toMatchObject({
      notes: lines,
      spent_usd: 0.2 + 0.1,
      cost_cap_usd: 0.5,
      status: 'stopped',
      message: 'cost cap: stopped',
    });
    await sweeps.close();
    await runs.close();
    sweeps = createSqliteSweepStore({ dir });
    runs = createSqliteRunStore({ dir });
    expect((await sweeps.getSweep('s1'))!.summary).toEqual(live);
    expect(await sweeps.listSweeps()).toEqual([live]);
    // A sweep with no cap and no lines carries neither, and has spent nothing yet.
    await sweeps.createSweep({ id: 's2', name: 'plain', grid, total: 2, runner: 'local' });
    expect((await sweeps.getSweep('s2'))!.summary).not.toHaveProperty('notes');
    expect((await sweeps.getSweep('s2'))!.summary).not.toHaveProperty('cost_cap_usd');
    expect((await sweeps.getSweep('s2'))!.summary.spent_usd).toBe(0);
  });

  it('a sweep closed after its process died has spent what its stored runs cost, however far its progress lagged', async () => {
    await sweeps.createSweep({
      id: 's1',
      name: 'x',
      grid: SweepGridSchema.parse({ ...grid, costCapUsd: 1 }),
      total: 2,
      runner: 'local',
    });
    await runs.createRun({
      id: 's1-0',
      config: sampleConfig(),
      ...batchOf(sampleRunEvents({ runId: 's1-0' })),
      sweep: { sweepId: 's1', job: 0, metrics: { ...metrics(0), usd: 0.3 } },
    });
    await sweeps.updateSweep({ id: 's1', done: 0, elapsedMs: 10, spentUsd: 0 }); // progress is persisted every 500 ms: it lags the runs
    setSweepOwner('s1', `${os.hostname()}:${deadPid()}:an-opening`);
    await sweeps.close();
    sweeps = createSqliteSweepStore({ dir });
    expect((await sweeps.getSweep('s1'))!.summary).toMatchObject({
      status: 'failed',
      done: 1,
      spent_usd: 0.3,
      cost_cap_usd: 1,
    });
  });

  it('writes neither the run nor its metrics when the log is broken', async () => {
    await sweeps.createSweep({ id: 's1', name: 'x', grid, total: 1, runner: 'local' });
    const broken = sampleRunEvents({ runId: 's1-0' }).filter((e) => e.seq !== 2);
    await expect(
      runs.createRun({
        id: 's1-0',
        config: sampleConfig(),
        ...batchOf(broken),
        sweep: { sweepId: 's1', job: 0, metrics: metrics(0) },
      }),
    ).rejects.toThrow();
    expect(await runs.getRun('s1-0')).toBeUndefined();
    expect(await sweeps.readSweepMetrics('s1')).toEqual([]);
  });

  it('closes at opening a sweep a dead process left running, with done equal to its stored runs', async () => {
    await sweeps.createSweep({ id: 's1', name: 'x', grid, total: 2, runner: 'local' });
    await sweeps.createSweep({
      id: 's2',
      name: 'waiting',
      grid,
      total: 2,
      runner: 'local',
      status: 'queued',
    });
    await runs.createRun({
      id: 's1-0',
      config: sampleConfig(),
      ...batchOf(sampleRunEvents({ runId: 's1-0' })),
      sweep: { sweepId: 's1', job: 0, metrics: metrics(0) },
    });
    await sweeps.updateSweep({ id: 's1', done: 0, elapsedMs: 10 }); // progress is persisted every 500 ms: it lags the runs
    setSweepOwner('s1', `${os.hostname()}:${deadPid()}:an-opening`);
    setSweepOwner('s2', `${os.hostname()}:${deadPid()}:an-opening`);
    await sweeps.close();
    sweeps = createSqliteSweepStore({ dir }); // the server starts again: nothing else is called
    expect((await sweeps.listSweeps()).map((s) => [s.id, s.status, s.done])).toEqual([
      ['s2', 'failed', 0],
      ['s1', 'failed', 1],
    ]);
    expect((await sweeps.getSweep('s1'))?.summary.message).toBe(INTERRUPTED_SWEEP_MESSAGE);
  });

  it('leaves alone a sweep whose owner is another live process on the same data folder', async () => {
    await sweeps.createSweep({ id: 's1', name: 'x', grid, total: 2, runner: 'local' });
    setSweepOwner('s1', `${os.hostname()}:${process.ppid}:another-opening`); // the parent: alive, not us
    await sweeps.close();
    sweeps = createSqliteSweepStore({ dir });
    expect((await sweeps.getSweep('s1'))?.summary.status).toBe('running');
    expect(await sweeps.closeInterrupted()).toEqual([]);
  });

  it('a sweep of an earlier opening in this process is closed by the next opening', async () => {
    await sweeps.createSweep({ id: 's1', name: 'x', grid, total: 2, runner: 'bullmq' });
    const again = createSqliteSweepStore({ dir });
    expect((await again.getSweep('s1'))?.summary).toMatchObject({ status: 'failed', done: 0 });
    await again.close();
  });
});

function setSweepOwner(id: string, owner: string): void {
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.prepare('UPDATE sweeps SET owner = ? WHERE id = ?').run(owner, id);
  db.close();
}

/** The pid of a process that has exited (a child spawned and waited for). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}
