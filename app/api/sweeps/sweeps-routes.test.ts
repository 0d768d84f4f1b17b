import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepRow, SweepRunMetrics } from '@/lib/protocol';
import { getSweepRegistry } from '@/lib/server';
import { GET as listSweeps, POST as postSweep } from './route';
import { GET as getSweep } from './[id]/route';
import { GET as getEvents } from './[id]/events/route';
import { POST as postCancel } from './[id]/cancel/route';
import { GET as getRuns } from './[id]/runs/route';
import { GET as getExport } from './[id]/export/route';
import { GET as getRun } from '../runs/[id]/route';

// The real worker pool and engine behind every sweep route.
const BASE = 'http://localhost/api';
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-sweep-routes-'));
  process.env.LOOP_LAB_DATA_DIR = dir;
});
afterAll(() => {
  const g = globalThis as { __loopLabStore?: { close(): void }; __loopLabSweepStore?: { close(): void }; __loopLabSweepRegistry?: unknown };
  g.__loopLabStore?.close();
  g.__loopLabSweepStore?.close();
  delete g.__loopLabStore;
  delete g.__loopLabSweepStore;
  delete g.__loopLabSweepRegistry;
  fs.rmSync(dir, { recursive: true, force: true });
});

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (url: string, body: unknown) =>
  new Request(`${BASE}${url}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
const GRID = {
  configurations: [{ id: 'codesmith', preset: 'codesmith' }, { id: 'naive', preset: 'naive' }],
  faultPlans: [{ id: 'overloaded', plan: { rules: [{ id: 'o', when: { kind: 'requests', numbers: [2] }, action: { type: 'http_error', status: 529 } }] } }],
  seeds: { from: 1, to: 3 },
};

interface Frame { status: string; done: number; total: number; runs_per_sec: number; eta_ms: number | null }

async function frames(id: string): Promise<Frame[]> {
  const response = await getEvents(new Request(`${BASE}/sweeps/${id}/events`), ctx(id));
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  return (await response.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Frame);
}

describe('sweep routes', () => {
  it('refuses a bad grid with a 400 naming each field', async () => {
    const response = await postSweep(post('/sweeps', { configurations: [], seeds: { from: 1, to: 2 }, scenarios: ['nope'], colour: 1 }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details: string[] };
    expect(body.details).toEqual(expect.arrayContaining([expect.stringMatching(/^configurations: /), expect.stringMatching(/colour/)]));
    const unknown = await postSweep(post('/sweeps', { ...GRID, scenarios: ['nope'] }));
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { details: string[] }).details[0]).toMatch(/unknown scenario "nope"/);
  });

  it('starts a sweep, streams its progress to the end, and serves its table, runs and exports', async () => {
    const created = await postSweep(post('/sweeps', GRID));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const seen = await frames(id);
    expect(seen.at(-1)).toMatchObject({ status: 'completed', done: 6, total: 6 });
    expect(seen.every((f, i) => i === 0 || f.done >= seen[i - 1]!.done)).toBe(true);

    const { sweep, rows } = (await (await getSweep(new Request(`${BASE}/sweeps/${id}`), ctx(id))).json()) as { sweep: Frame; rows: SweepRow[] };
    expect(sweep.status).toBe('completed');
    expect(rows.map((r) => [r.config, r.runs, r.completion_rate])).toEqual([['codesmith', 3, 1], ['naive', 3, 0]]);
    expect(((await (await listSweeps(new Request(`${BASE}/sweeps`))).json()) as { id: string }[])[0]?.id).toBe(id);

    // Drill in: a cell's runs, and each opens as an ordinary run.
    const runs = (await (await getRuns(new Request(`${BASE}/sweeps/${id}/runs?key=${encodeURIComponent(rows[1]!.key)}`), ctx(id))).json()) as SweepRunMetrics[];
    expect(runs.map((r) => r.seed)).toEqual([1, 2, 3]);
    expect(runs.every((r) => !r.complete && r.errors_seen === 1)).toBe(true);
    expect((await getRun(new Request(`${BASE}/runs/${runs[0]!.run_id}`), ctx(runs[0]!.run_id))).status).toBe(200);

    const csv = await getExport(new Request(`${BASE}/sweeps/${id}/export?format=csv&what=table`), ctx(id));
    expect(csv.headers.get('content-disposition')).toContain(`${id}-table.csv`);
    const parsed = Papa.parse<Record<string, string>>(await csv.text(), { header: true, skipEmptyLines: true });
    expect(parsed.data.map((r) => [r.config, Number(r.loop_completion_rate), Number(r.task_verdict_rate)])).toEqual([['codesmith', 1, 1], ['naive', 0, 0]]);
    const json = (await (await getExport(new Request(`${BASE}/sweeps/${id}/export`), ctx(id))).json()) as { rows: SweepRow[]; runs: unknown[] };
    expect(json.rows).toEqual(rows);
    expect(json.runs).toHaveLength(6);

    const late = await postCancel(post(`/sweeps/${id}/cancel`, {}), ctx(id));
    expect(late.status).toBe(409);
  }, 180_000);

  it('cancels a running sweep: the stream ends cancelled and the runs stop', async () => {
    const { id } = (await (await postSweep(post('/sweeps', { ...GRID, seeds: { from: 1, to: 200 } }))).json()) as { id: string };
    const cancelled = await postCancel(post(`/sweeps/${id}/cancel`, {}), ctx(id));
    expect(cancelled.status).toBe(202);
    const last = (await frames(id)).at(-1)!;
    expect(last.status).toBe('cancelled');
    expect(last.done).toBeLessThan(400);
    await getSweepRegistry().whenFinished(id);
    expect((await postCancel(post('/sweeps/nope/cancel', {}), ctx('nope'))).status).toBe(404);
  }, 180_000);
});
