import { describe, expect, it } from 'vitest';
import { parseCassette } from '@/lib/cassettes';
import { CassetteListSchema, CassetteSummarySchema, CreatedRunSchema, parseResponse } from '@/lib/protocol/http';
import type { RunEvent } from '@/lib/protocol';
import { getRunRegistry } from '@/lib/server';
import { jsonPost, readSseEvents, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { GET as listCassettes, POST as importCassette } from './route';
import { GET as getCassette } from './[id]/route';
import { POST as postRun } from '../runs/route';
import { POST as saveRunCassette } from '../runs/[id]/cassette/route';
import { GET as getEvents } from '../runs/[id]/events/route';

// Save a run as a cassette, list and download it, import it again, and replay it through POST /api/runs.
const BASE = 'http://localhost/api';
useTempDataDir('loop-lab-cassette-routes-');

async function runToEnd(config: Record<string, unknown>): Promise<{ id: string; events: RunEvent[] }> {
  const created = await postRun(jsonPost(`${BASE}/runs`, { config }));
  expect(created.status, await created.clone().text()).toBe(201);
  const { id } = parseResponse(CreatedRunSchema, await created.json(), 'POST /api/runs');
  await getRunRegistry().whenFinished(id);
  const events = await readSseEvents<RunEvent>(await getEvents(new Request(`${BASE}/runs/${id}/events`), routeContext({ id })));
  return { id, events };
}

describe('cassette routes', () => {
  it('saves a finished run as a cassette, lists it beside the shipped ones, downloads it, imports it, and replays it to the same answers', async () => {
    const task = 'Explain what this project does and where its tests live.';
    const original = await runToEnd({ provider: { vendor: 'sim-openai' }, task, clock: 'virtual', seed: 4 });

    const saved = await saveRunCassette(jsonPost(`${BASE}/runs/${original.id}/cassette`, {}), routeContext({ id: original.id }));
    expect(saved.status).toBe(201);
    const summary = parseResponse(CassetteSummarySchema, await saved.json(), 'POST /api/runs/{id}/cassette');
    expect(summary).toMatchObject({ from_run: original.id, shipped: false, source: { kind: 'simulated', vendor: 'sim-openai', model: 'gpt-sim-4o' } });
    // It keeps the config the run was recorded with: the list offers it to the playground, and the file carries it.
    const recordedWith = original.events.find((e) => e.event === 'run_start')?.config;
    expect(summary).toMatchObject({ version: 2, config: { task, seed: 4, clock: 'virtual', scenario: 'fix-failing-test' } });
    expect(summary.config).toEqual(recordedWith);

    const list = parseResponse(CassetteListSchema, await (await listCassettes()).json(), 'GET /api/cassettes');
    expect(list.cassettes.map((c) => c.id)).toEqual(expect.arrayContaining(['shipped:explain-project.sim-anthropic', summary.id]));

    const file = await getCassette(new Request(`${BASE}/cassettes/${summary.id}`), routeContext({ id: summary.id }));
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename=".*\.cassette\.json"/);
    const cassette = parseCassette(await file.text());
    expect(cassette.config).toEqual(recordedWith);
    expect(cassette.exchanges.length).toBe(original.events.filter((e) => e.event === 'model_request').length);

    const imported = await importCassette(jsonPost(`${BASE}/cassettes`, { name: 'again', cassette }));
    expect(imported.status).toBe(201);
    const again = parseResponse(CassetteSummarySchema, await imported.json(), 'POST /api/cassettes');

    const replay = await runToEnd({ provider: { vendor: 'sim-openai' }, task, clock: 'virtual', seed: 4, replay: { cassette: again.id } });
    const said = (events: RunEvent[]) => events.flatMap((e) => (e.event === 'llm_call' ? [e.message] : []));
    expect(replay.events.filter((e) => e.event === 'off_recording')).toEqual([]);
    expect(said(replay.events)).toEqual(said(original.events));
  });

  it('refuses what it cannot do, saying why', async () => {
    const unknownRun = await saveRunCassette(jsonPost(`${BASE}/runs/nope/cassette`, {}), routeContext({ id: 'nope' }));
    expect(unknownRun.status).toBe(404);
    const missing = await postRun(jsonPost(`${BASE}/runs`, { config: { provider: { vendor: 'sim-openai' }, replay: { cassette: 'no-such' } } }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ details: ['config.replay.cassette: no cassette "no-such"; GET /api/cassettes lists them'] });
    const wrongVendor = await postRun(
      jsonPost(`${BASE}/runs`, { config: { provider: { vendor: 'sim-openai' }, replay: { cassette: 'shipped:explain-project.sim-anthropic' } } }),
    );
    expect(wrongVendor.status).toBe(400);
    expect(await wrongVendor.text()).toMatch(/recorded from sim-anthropic/);
    const notFound = await getCassette(new Request(`${BASE}/cassettes/x`), routeContext({ id: 'x' }));
    expect(notFound.status).toBe(404);
  });
});
