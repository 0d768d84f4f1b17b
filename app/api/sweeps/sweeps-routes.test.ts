import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { jsonPost, readSseEvents, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import type { z } from 'zod';
import {
  CreatedSchema,
  ErrorBodySchema,
  parseResponse,
  SweepCancelledSchema,
  SweepDetailSchema,
  SweepExportSchema,
  SweepFrameSchema,
  SweepRunMetricsListSchema,
  SweepSummaryListSchema,
  type SweepFrame,
} from '@/lib/protocol/http';
import { getSweepRegistry } from '@/lib/server';
import { GET as listSweeps, POST as postSweep } from './route';
import { GET as getSweep } from './[id]/route';
import { GET as getEvents } from './[id]/events/route';
import { POST as postCancel } from './[id]/cancel/route';
import { GET as getRuns } from './[id]/runs/route';
import { GET as getExport } from './[id]/export/route';
import { GET as getRun } from '../runs/[id]/route';
import { OUTAGE_GRID } from '@/lib/sweeps/execute-sweep-grid.testkit';

// The real worker pool and engine behind every sweep route.
const BASE = 'http://localhost/api';
useTempDataDir('loop-lab-sweep-routes-');

const ctx = (id: string) => routeContext({ id });
const post = (url: string, body: unknown) => jsonPost(`${BASE}${url}`, body);
const GRID = {
  ...OUTAGE_GRID,
  seeds: { from: 1, to: 3 },
};

/** Every response is read as the browser reads it: parsed with its endpoint's schema (lib/protocol/http). */
async function read<S extends z.ZodType>(
  schema: S,
  response: Response,
  endpoint: string,
): Promise<z.output<S>> {
  return parseResponse(schema, await response.json(), endpoint);
}

async function frames(id: string): Promise<SweepFrame[]> {
  const response = await getEvents(new Request(`${BASE}/sweeps/${id}/events`), ctx(id));
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  return (await readSseEvents(response)).map((data) =>
    parseResponse(SweepFrameSchema, data, 'GET /api/sweeps/{id}/events'),
  );
}

describe('sweep routes', () => {
  it('refuses a bad grid with a 400 naming each field', async () => {
    const response = await postSweep(
      post('/sweeps', { configurations: [], seeds: { from: 1, to: 2 }, scenarios: ['nope'], colour: 1 }),
    );
    expect(response.status).toBe(400);
    const body = await read(ErrorBodySchema, response, 'POST /api/sweeps');
    expect(body.details).toEqual(
      expect.arrayContaining([expect.stringMatching(/^configurations: /), expect.stringMatching(/colour/)]),
    );
    const unknown = await postSweep(post('/sweeps', { ...GRID, scenarios: ['nope'] }));
    expect(unknown.status).toBe(400);
    expect((await read(ErrorBodySchema, unknown, 'POST /api/sweeps')).details?.[0]).toMatch(
      /unknown scenario "nope"/,
    );
  });

  it('starts a sweep, streams its progress to the end, and serves its table, runs and exports', async () => {
    const created = await postSweep(post('/sweeps', GRID));
    expect(created.status).toBe(201);
    const { id } = await read(CreatedSchema, created, 'POST /api/sweeps');

    const seen = await frames(id);
    expect(seen.at(-1)).toMatchObject({ status: 'completed', done: 6, total: 6 });
    expect(seen.every((f, i) => i === 0 || f.done >= seen[i - 1]!.done)).toBe(true);

    const { sweep, rows, comparisons } = await read(
      SweepDetailSchema,
      await getSweep(new Request(`${BASE}/sweeps/${id}`), ctx(id)),
      'GET /api/sweeps/{id}',
    );
    expect(sweep.status).toBe('completed');
    expect(rows.map((r) => [r.config, r.runs, r.completion_rate])).toEqual([
      ['codesmith', 3, 1],
      ['naive', 3, 0],
    ]);
    // Three seeds all one way are too few for the exact test (p = 0.25): no ▲, and how many would do.
    const done = comparisons![0]!.metrics.find((m) => m.metric === 'done')!;
    expect(done).toMatchObject({ a_better: 3, b_better: 0, better: null, seeds_needed: 6 });
    expect(done.line).toMatch(/^no detectable difference at this sample size on task done/);
    expect(
      (
        await read(SweepSummaryListSchema, await listSweeps(new Request(`${BASE}/sweeps`)), 'GET /api/sweeps')
      )[0]?.id,
    ).toBe(id);

    // Drill in: a cell's runs, and each opens as an ordinary run.
    const runs = await read(
      SweepRunMetricsListSchema,
      await getRuns(
        new Request(`${BASE}/sweeps/${id}/runs?key=${encodeURIComponent(rows[1]!.key)}`),
        ctx(id),
      ),
      'GET /api/sweeps/{id}/runs',
    );
    expect(runs.map((r) => r.seed)).toEqual([1, 2, 3]);
    expect(runs.every((r) => !r.complete && r.errors_seen === 1)).toBe(true);
    expect((await getRun(new Request(`${BASE}/runs/${runs[0]!.run_id}`), ctx(runs[0]!.run_id))).status).toBe(
      200,
    );

    const csv = await getExport(new Request(`${BASE}/sweeps/${id}/export?format=csv&what=table`), ctx(id));
    expect(csv.headers.get('content-disposition')).toContain(`${id}-table.csv`);
    const parsed = Papa.parse<Record<string, string>>(await csv.text(), {
      header: true,
      skipEmptyLines: true,
    });
    expect(
      parsed.data.map((r) => [r.config, Number(r.loop_completion_rate), Number(r.task_verdict_rate)]),
    ).toEqual([
      ['codesmith', 1, 1],
      ['naive', 0, 0],
    ]);
    const json = await read(
      SweepExportSchema,
      await getExport(new Request(`${BASE}/sweeps/${id}/export`), ctx(id)),
      'GET /api/sweeps/{id}/export',
    );
    expect(json.rows).toEqual(rows);
    expect(json.runs).toHaveLength(6);

    const late = await postCancel(post(`/sweeps/${id}/cancel`, {}), ctx(id));
    expect(late.status).toBe(409);
  }, 180_000);

  it('cancels a running sweep: the stream ends cancelled and the runs stop', async () => {
    const { id } = await read(
      CreatedSchema,
      await postSweep(post('/sweeps', { ...GRID, seeds: { from: 1, to: 200 } })),
      'POST /api/sweeps',
    );
    const cancelled = await postCancel(post(`/sweeps/${id}/cancel`, {}), ctx(id));
    expect(cancelled.status).toBe(202);
    expect(await read(SweepCancelledSchema, cancelled, 'POST /api/sweeps/{id}/cancel')).toEqual({ ok: true });
    const last = (await frames(id)).at(-1)!;
    expect(last.status).toBe('cancelled');
    expect(last.done).toBeLessThan(400);
    await getSweepRegistry().whenFinished(id);
    expect((await postCancel(post('/sweeps/nope/cancel', {}), ctx('nope'))).status).toBe(404);
  }, 180_000);
});
