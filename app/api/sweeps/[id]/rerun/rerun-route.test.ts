import { describe, expect, it } from 'vitest';
import type { SweepDetail } from '@/lib/protocol/http';
import { getSweepRegistry } from '@/lib/server';
import { getSweepStore } from '@/lib/store';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { dispatch } from '@/scripts/api/dispatch-route';
import { OUTAGE_GRID } from '@/lib/sweeps/execute-sweep-grid.testkit';

/**
 * POST /api/sweeps/{id}/rerun on a real sweep (the worker pool, the engine, the simulated vendor):
 * naive gives up at a 529 the codesmith preset retries, so naive's runs end on an error; the
 * re-run is a new sweep of only those jobs, under their old indices, naming the sweep it re-runs.
 */
useTempDataDir('loop-lab-sweep-rerun-');

const GRID = {
  name: 'outage',
  ...OUTAGE_GRID,
  seeds: { from: 1, to: 2 },
};

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await dispatch({ method: 'POST', path, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function detail(id: string): Promise<SweepDetail> {
  return (await (await dispatch({ method: 'GET', path: `/api/sweeps/${id}` })).json()) as SweepDetail;
}

describe('re-running what failed in a sweep', () => {
  it('runs only the failed jobs again, as a new sweep linked to the old one', async () => {
    const created = await post('/api/sweeps', GRID);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const old = created.body.id as string;
    await getSweepRegistry().whenFinished(old);
    const before = await detail(old);
    const failed = before.failed!;
    const metrics = await getSweepStore().readSweepMetrics(old);
    // naive's two runs ended on the 529; codesmith's retried it and finished.
    expect(failed.map((f) => f.job)).toEqual(metrics.filter((m) => !m.complete).map((m) => m.job));
    expect(failed.length).toBe(2);
    for (const f of failed) expect(f.reason).toMatch(/^(model_error|retries_exhausted): /);

    const rerun = await post(`/api/sweeps/${old}/rerun`, {});
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(201);
    const id = rerun.body.id as string;
    await getSweepRegistry().whenFinished(id);
    const after = await detail(id);
    expect(after.grid.rerun).toEqual({ of: old, jobs: failed });
    expect(after.sweep.name).toBe('re-run of outage: 2 failed');
    expect(after.sweep.total).toBe(2);
    const runs = await getSweepStore().readSweepMetrics(id);
    expect(runs.map((r) => [r.job, r.run_id])).toEqual(failed.map((f) => [f.job, `${id}-${f.job}`]));
    // The same config and seed on the simulated vendor fail the same way: the re-run has them to run again.
    expect((await detail(id)).failed?.map((f) => f.job)).toEqual(failed.map((f) => f.job));
  }, 120_000);

  it('refuses a sweep where nothing failed, cassettes a simulated sweep never kept, and an unknown sweep', async () => {
    const created = await post('/api/sweeps', {
      ...GRID,
      name: 'fine',
      configurations: [GRID.configurations[0]],
    });
    const id = created.body.id as string;
    await getSweepRegistry().whenFinished(id);
    const none = await post(`/api/sweeps/${id}/rerun`, {});
    expect(none.status).toBe(400);
    expect(none.body.details).toEqual([expect.stringMatching(/nothing failed/)]);
    const old = (await getSweepStore().listSweeps()).find((s) => s.name === 'outage')!.id;
    const cassettes = await post(`/api/sweeps/${old}/rerun`, { fromCassettes: true });
    expect(cassettes.status).toBe(400);
    expect(cassettes.body.details).toEqual([expect.stringMatching(/^fromCassettes: only a real endpoint/)]);
    const bad = await post(`/api/sweeps/${old}/rerun`, { fromCassettes: 'yes' });
    expect(bad.status).toBe(400);
    expect((await post('/api/sweeps/no-such/rerun', {})).status).toBe(404);
  }, 120_000);
});
