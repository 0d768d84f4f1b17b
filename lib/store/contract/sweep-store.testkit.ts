import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { SweepGridSchema, type SweepRunMetrics } from '@/lib/protocol';
import { batchOf, sampleConfig, sampleRunEvents } from '../sample-run.testkit';
import { INTERRUPTED_SWEEP_MESSAGE } from '../sweep-store';
import { deadPid } from '@/lib/testing/local-process';
import { attempt, type StoreBackend } from './store-backends.testkit';

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

/** The sweep store's contract, with the run store that writes each sweep run's metrics row. */
export function sweepStoreContract(backend: () => StoreBackend): void {
  describe('sweep store', () => {
    it('keeps a sweep, its progress and its runs’ metrics, written with each run in one transaction', async () => {
      const { runs, sweeps } = await backend().open();
      await sweeps.createSweep({
        id: 's1',
        name: 'two seeds',
        grid,
        total: 2,
        runner: 'local',
        createdAt: 5,
      });
      for (const job of [1, 0])
        await runs.createRun({
          id: `s1-${job}`,
          config: sampleConfig(),
          ...batchOf(sampleRunEvents({ runId: `s1-${job}` })),
          sweep: { sweepId: 's1', job, metrics: metrics(job) },
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
      expect(await sweeps.getSweep('nope')).toBeUndefined();
    });

    it("keeps what a sweep spent against its cap and its endpoints' lines, read back the same after the store is opened again", async () => {
      const first = await backend().open();
      const capped = SweepGridSchema.parse({ ...grid, costCapUsd: 0.5 });
      await first.sweeps.createSweep({ id: 's1', name: 'capped', grid: capped, total: 2, runner: 'local' });
      const cost = [0.1, 0.2];
      for (const job of [1, 0])
        await first.runs.createRun({
          id: `s1-${job}`,
          config: sampleConfig(),
          ...batchOf(sampleRunEvents({ runId: `s1-${job}` })),
          sweep: { sweepId: 's1', job, metrics: { ...metrics(job), usd: cost[job]! } },
        });
      const lines = [
        'endpoint "local" paused for 3 min: it answered 429 with Retry-After 3 min; no run of the sweep sends to it until the pause ends (run s1-1)',
      ];
      await first.sweeps.updateSweep({ id: 's1', done: 1, elapsedMs: 20, notes: lines, spentUsd: 0.2 });
      // A later update without lines keeps them; the sweep's end writes its status and message beside them.
      await first.sweeps.updateSweep({
        id: 's1',
        done: 2,
        elapsedMs: 40,
        status: 'stopped',
        message: 'cost cap: stopped',
        spentUsd: 0.2 + 0.1,
      });
      await first.sweeps.updateSweep({ id: 's1', done: 2, elapsedMs: 40 });
      const live = (await first.sweeps.getSweep('s1'))!.summary;
      expect(live).toMatchObject({
        notes: lines,
        spent_usd: 0.2 + 0.1,
        cost_cap_usd: 0.5,
        status: 'stopped',
        message: 'cost cap: stopped',
      });
      await first.close();
      const { sweeps } = await backend().open();
      expect((await sweeps.getSweep('s1'))!.summary).toEqual(live);
      expect(await sweeps.listSweeps()).toEqual([live]);
      // A sweep with no cap and no lines carries neither, and has spent nothing yet.
      await sweeps.createSweep({ id: 's2', name: 'plain', grid, total: 2, runner: 'local' });
      expect((await sweeps.getSweep('s2'))!.summary).not.toHaveProperty('notes');
      expect((await sweeps.getSweep('s2'))!.summary).not.toHaveProperty('cost_cap_usd');
      expect((await sweeps.getSweep('s2'))!.summary.spent_usd).toBe(0);
      expect((await sweeps.listSweeps({ limit: 1 })).map((s) => s.id)).toEqual(['s2']);
    });

    it('a sweep closed after its process died has spent what its stored runs cost, their sub-agents included, however far its progress lagged', async () => {
      const first = await backend().open();
      await first.sweeps.createSweep({
        id: 's1',
        name: 'x',
        grid: SweepGridSchema.parse({ ...grid, costCapUsd: 1 }),
        total: 2,
        runner: 'local',
      });
      await first.runs.createRun({
        id: 's1-0',
        config: sampleConfig(),
        ...batchOf(sampleRunEvents({ runId: 's1-0' })),
        sweep: { sweepId: 's1', job: 0, metrics: { ...metrics(0), usd: 0.3 } },
      });
      // A run whose sub-agents spent too: its cost is its own plus theirs.
      await first.runs.createRun({
        id: 's1-1',
        config: sampleConfig(),
        ...batchOf(sampleRunEvents({ runId: 's1-1' })),
        sweep: { sweepId: 's1', job: 1, metrics: { ...metrics(1), usd: 0.25, subagent_usd: 0.125 } },
      });
      await first.sweeps.updateSweep({ id: 's1', done: 0, elapsedMs: 10, spentUsd: 0 }); // progress lags the runs
      await backend().setOwner('sweeps', 's1', `${os.hostname()}:${deadPid()}:an-opening`);
      await first.close();
      const { sweeps } = await backend().open();
      expect((await sweeps.getSweep('s1'))!.summary).toMatchObject({
        status: 'failed',
        done: 2,
        spent_usd: 0.3 + 0.25 + 0.125,
        cost_cap_usd: 1,
      });
    });

    it('writes neither the run nor its metrics when the log is broken', async () => {
      const { runs, sweeps } = await backend().open();
      await sweeps.createSweep({ id: 's1', name: 'x', grid, total: 1, runner: 'local' });
      const broken = sampleRunEvents({ runId: 's1-0' }).filter((e) => e.seq !== 2);
      await expect(
        attempt(() =>
          runs.createRun({
            id: 's1-0',
            config: sampleConfig(),
            ...batchOf(broken),
            sweep: { sweepId: 's1', job: 0, metrics: metrics(0) },
          }),
        ),
      ).rejects.toThrow();
      expect(await runs.getRun('s1-0')).toBeUndefined();
      expect(await sweeps.readSweepMetrics('s1')).toEqual([]);
    });

    it('closes at opening a sweep a dead process left running, with done equal to its stored runs', async () => {
      const first = await backend().open();
      await first.sweeps.createSweep({ id: 's1', name: 'x', grid, total: 2, runner: 'local' });
      await first.sweeps.createSweep({
        id: 's2',
        name: 'waiting',
        grid,
        total: 2,
        runner: 'local',
        status: 'queued',
      });
      await first.runs.createRun({
        id: 's1-0',
        config: sampleConfig(),
        ...batchOf(sampleRunEvents({ runId: 's1-0' })),
        sweep: { sweepId: 's1', job: 0, metrics: metrics(0) },
      });
      await first.sweeps.updateSweep({ id: 's1', done: 0, elapsedMs: 10 }); // progress lags the runs
      await backend().setOwner('sweeps', 's1', `${os.hostname()}:${deadPid()}:an-opening`);
      await backend().setOwner('sweeps', 's2', `${os.hostname()}:${deadPid()}:an-opening`);
      await first.close();
      const { sweeps } = await backend().open(); // the server starts again: nothing else is called
      expect((await sweeps.listSweeps()).map((s) => [s.id, s.status, s.done])).toEqual([
        ['s2', 'failed', 0],
        ['s1', 'failed', 1],
      ]);
      expect((await sweeps.getSweep('s1'))?.summary.message).toBe(INTERRUPTED_SWEEP_MESSAGE);
    });

    it('leaves alone a sweep whose owner is another live process on the same store', async () => {
      const first = await backend().open();
      await first.sweeps.createSweep({ id: 's1', name: 'x', grid, total: 2, runner: 'local' });
      await backend().setOwner('sweeps', 's1', `${os.hostname()}:${process.ppid}:another-opening`); // alive, not us
      await first.close();
      const { sweeps } = await backend().open();
      expect((await sweeps.getSweep('s1'))?.summary.status).toBe('running');
      expect(await sweeps.closeInterrupted()).toEqual([]);
    });

    it('a sweep of an earlier opening in this process is closed by the next opening', async () => {
      const first = await backend().open();
      await first.sweeps.createSweep({ id: 's1', name: 'x', grid, total: 2, runner: 'bullmq' });
      const again = await backend().open();
      expect((await again.sweeps.getSweep('s1'))?.summary).toMatchObject({ status: 'failed', done: 0 });
      expect(await first.sweeps.closeInterrupted()).toEqual([]); // closed already
    });
  });
}
