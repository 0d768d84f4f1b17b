import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonPost, readSseEvents, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import type { z } from 'zod';
import type { RunEvent } from '@/lib/protocol';
import {
  ControlAcceptedSchema,
  CreatedRunSchema,
  CreatedSchema,
  ErrorBodySchema,
  parseResponse,
  PromptSetListSchema,
  PromptSetSchema,
  RunRecordSchema,
  RunSummaryListSchema,
  ScenarioListSchema,
} from '@/lib/protocol/http';
import { GET as getRuns, POST as postRun } from './runs/route';
import { GET as getRun } from './runs/[id]/route';
import { GET as getEvents } from './runs/[id]/events/route';
import { POST as postControl } from './runs/[id]/control/route';
import { GET as getTrace } from './runs/[id]/trace/route';
import { POST as postImport } from './runs/import/route';
import { GET as getScenarios } from './scenarios/route';
import { GET as getPromptSets, POST as postPromptSet } from './prompt-sets/route';

// The real engine on simulated vendors behind every route: virtual-clock runs finish in
// milliseconds; a real-clock run stays live long enough to be aborted.
const BASE = 'http://localhost/api';
const KEY = 'sk-ant-route-test-0123456789-DONOTSTORE';
const dataDir = useTempDataDir('loop-lab-routes-');

const ctx = (id: string) => routeContext({ id });
const post = (url: string, body: string) => jsonPost(`${BASE}${url}`, body);

/** Every response is read as the browser reads it: parsed with its endpoint's schema (lib/protocol/http). */
async function read<S extends z.ZodType>(
  schema: S,
  response: Response,
  endpoint: string,
): Promise<z.output<S>> {
  return parseResponse(schema, await response.json(), endpoint);
}
const readError = (response: Response) => read(ErrorBodySchema, response, `error ${response.status}`);

async function startRun(body: unknown): Promise<string> {
  const response = await postRun(post('/runs', JSON.stringify(body)));
  expect(response.status).toBe(201);
  const created = await read(CreatedRunSchema, response, 'POST /api/runs');
  // The first events come with the answer, so the page draws the run before its stream opens.
  expect(created.events[0]).toMatchObject({ run_id: created.id, seq: 0, event: 'run_start' });
  expect(created.events.map((e) => e.seq)).toEqual(created.events.map((_, i) => i));
  return created.id;
}

async function streamed(id: string, headers: Record<string, string> = {}): Promise<RunEvent[]> {
  const response = await getEvents(new Request(`${BASE}/runs/${id}/events`, { headers }), ctx(id));
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  return readSseEvents<RunEvent>(response);
}

describe('POST /api/runs', () => {
  it('rejects a bad config with a 400 naming each bad field', async () => {
    const response = await postRun(
      post('/runs', JSON.stringify({ config: { provider: { vendor: 'acme' }, seed: -1, color: 'red' } })),
    );
    expect(response.status).toBe(400);
    const body = await readError(response);
    expect(body.error).toBe('The request is invalid');
    expect(body.details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^config\.provider\.vendor: /),
        expect.stringMatching(/^config\.seed: /),
        expect.stringMatching(/^config: .*color/),
      ]),
    );
  });

  it('says so when the body is not JSON', async () => {
    const response = await postRun(post('/runs', '{config: nope'));
    expect(response.status).toBe(400);
    expect(await readError(response)).toEqual({
      error: expect.stringMatching(/^The request body is not valid JSON: /),
    });
  });

  it('rejects a config this installation cannot run', async () => {
    const response = await postRun(
      post(
        '/runs',
        JSON.stringify({ config: { provider: { vendor: 'sim-anthropic' }, scenario: 'no-such-scenario' } }),
      ),
    );
    expect(response.status).toBe(400);
    const body = await readError(response);
    expect(body.details).toEqual([
      expect.stringMatching(/^config\.scenario: unknown scenario "no-such-scenario"/),
    ]);
  });

  it('starts a run: 201 with its id, streamed, listed, summarized and exported', async () => {
    const id = await startRun({ config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual' } });
    const events = await streamed(id);
    const n = events.length;
    expect(n).toBeGreaterThan(20);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn', complete: true });
    expect((await streamed(id, { 'Last-Event-ID': String(n - 3) })).map((e) => e.seq)).toEqual([
      n - 2,
      n - 1,
    ]);

    const list = await read(
      RunSummaryListSchema,
      await getRuns(new Request(`${BASE}/runs`)),
      'GET /api/runs',
    );
    expect(list[0]).toMatchObject({
      id,
      status: 'completed',
      reason: 'end_turn',
      event_count: n,
      imported: false,
    });

    const one = await getRun(new Request(`${BASE}/runs/${id}`), ctx(id));
    expect(await read(RunRecordSchema, one, 'GET /api/runs/{id}')).toMatchObject({
      summary: { id, event_count: n, vendor: 'sim-anthropic', verdict: 'done' },
      config: { clock: 'virtual' },
    });

    const trace = await getTrace(new Request(`${BASE}/runs/${id}/trace`), ctx(id));
    expect(trace.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(trace.headers.get('content-disposition')).toBe(`attachment; filename="run-${id}.jsonl"`);
    expect(
      (await trace.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(events);
  });

  it('hands a browser key to the run only: never in a response or the database', async () => {
    const id = await startRun({
      config: { provider: { vendor: 'sim-anthropic', keySource: 'request' }, clock: 'virtual' },
      apiKey: KEY,
    });
    const seen =
      JSON.stringify(await streamed(id)) +
      JSON.stringify(
        await read(
          RunRecordSchema,
          await getRun(new Request(`${BASE}/runs/${id}`), ctx(id)),
          'GET /api/runs/{id}',
        ),
      );
    expect(seen).not.toContain(KEY);
    const bytes = fs
      .readdirSync(dataDir())
      .map((n) => fs.readFileSync(path.join(dataDir(), n)).toString('latin1'))
      .join('');
    expect(bytes).not.toContain(KEY);
  });
});

describe('POST /api/runs/{id}/control', () => {
  it('aborts a live run with 202 and refuses a finished one with 409', async () => {
    const id = await startRun({
      config: { provider: { vendor: 'sim-anthropic' }, clock: 'real', timeScale: 1 },
    });
    const accepted = await postControl(
      post(`/runs/${id}/control`, JSON.stringify({ action: 'abort' })),
      ctx(id),
    );
    expect(accepted.status).toBe(202);
    expect(await read(ControlAcceptedSchema, accepted, 'POST /api/runs/{id}/control')).toEqual({
      accepted: 'abort',
    });
    const events = await streamed(id);
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'aborted' });
    const again = await postControl(
      post(`/runs/${id}/control`, JSON.stringify({ action: 'abort' })),
      ctx(id),
    );
    expect(again.status).toBe(409);
    expect((await readError(again)).error).toMatch(/./);
  });

  it('swaps a live run to another vendor from the next request, and refuses a swap it cannot make with a 400', async () => {
    const id = await startRun({
      config: { provider: { vendor: 'sim-anthropic' }, clock: 'real', timeScale: 0.02 },
    });
    const bad = await postControl(
      post(
        `/runs/${id}/control`,
        JSON.stringify({ action: 'swap', vendor: 'sim-openai', model: 'claude-sim-haiku' }),
      ),
      ctx(id),
    );
    expect(bad.status).toBe(400);
    expect((await readError(bad)).details).toEqual([
      expect.stringMatching(/^model: the simulated vendor sim-openai serves gpt-sim-4o/),
    ]);
    const accepted = await postControl(
      post(`/runs/${id}/control`, JSON.stringify({ action: 'swap', vendor: 'sim-openai' })),
      ctx(id),
    );
    expect(accepted.status).toBe(202);
    expect(await read(ControlAcceptedSchema, accepted, 'POST /api/runs/{id}/control')).toEqual({
      accepted: 'swap',
    });
    const events = await streamed(id);
    const swap = events.find((e) => e.event === 'swap');
    expect(swap).toMatchObject({
      cause: 'control',
      from_vendor: 'sim-anthropic',
      to_vendor: 'sim-openai',
      to_model: 'gpt-sim-4o',
    });
    expect(events.find((e) => e.seq > swap!.seq && e.event === 'llm_call')).toMatchObject({
      vendor: 'sim-openai',
    });
    expect(events.at(-1)).toMatchObject({ event: 'terminate', complete: true });
  });

  it('"compact" reaches the run: a control event, then a manual compaction before the next request', async () => {
    const id = await startRun({
      config: { provider: { vendor: 'sim-anthropic' }, clock: 'real', timeScale: 0.05 },
    });
    const accepted = await postControl(
      post(`/runs/${id}/control`, JSON.stringify({ action: 'compact' })),
      ctx(id),
    );
    expect(accepted.status).toBe(202);
    const events = (await streamed(id)) as Array<{
      event: string;
      action?: string;
      trigger?: string;
      seq: number;
    }>;
    const control = events.find((e) => e.event === 'control' && e.action === 'compact');
    const manual = events.find((e) => e.event === 'compaction' && e.trigger === 'manual');
    expect(control).toBeDefined();
    expect(manual).toBeDefined();
    expect(manual!.seq).toBeGreaterThan(control!.seq);
  });

  it('validates the control message', async () => {
    const response = await postControl(
      post('/runs/x/control', JSON.stringify({ action: 'set_faults', faults: { rules: 'all' } })),
      ctx('x'),
    );
    expect(response.status).toBe(400);
    expect((await readError(response)).details).toEqual([expect.stringMatching(/^faults\.rules: /)]);
  });
});

describe('unknown runs', () => {
  it('answers 404 everywhere', async () => {
    const id = 'no-such-run';
    const responses = await Promise.all([
      getRun(new Request(`${BASE}/runs/${id}`), ctx(id)),
      getEvents(new Request(`${BASE}/runs/${id}/events`), ctx(id)),
      getTrace(new Request(`${BASE}/runs/${id}/trace`), ctx(id)),
      postControl(post(`/runs/${id}/control`, '{"action":"abort"}'), ctx(id)),
    ]);
    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect(await readError(responses[0]!)).toEqual({ error: 'No run with id "no-such-run"' });
    for (const response of responses.slice(1))
      expect((await readError(response)).error).toContain('no-such-run');
  });
});

describe('POST /api/runs/import', () => {
  it('imports a plain tracer trace and reports bad lines', async () => {
    const fixture = fs.readFileSync(
      path.join(__dirname, '../../lib/store/fixtures/tracer-trace.jsonl'),
      'utf8',
    );
    const created = await postImport(post('/runs/import', fixture));
    expect(created.status).toBe(201);
    const { id } = await read(CreatedSchema, created, 'POST /api/runs/import');
    const one = await read(
      RunRecordSchema,
      await getRun(new Request(`${BASE}/runs/${id}`), ctx(id)),
      'GET /api/runs/{id}',
    );
    expect(one.summary.imported).toBe(true);
    expect((await streamed(id)).at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn' });

    const bad = await postImport(post('/runs/import', `${fixture}not json\n`));
    expect(bad.status).toBe(400);
    expect(await readError(bad)).toEqual({
      error: 'The trace could not be imported',
      details: [expect.stringMatching(/^line 9: not valid JSON/)],
    });
  });
});

describe('GET /api/scenarios', () => {
  it('lists scenarios for pickers', async () => {
    const body = await read(ScenarioListSchema, await getScenarios(), 'GET /api/scenarios');
    expect(body[0]).toEqual({
      id: 'fix-failing-test',
      title: expect.any(String),
      summary: expect.any(String),
      task: expect.any(String),
      tools: expect.any(Array),
    });
    expect(body[0]!.tools.map((t) => t.name)).toEqual([
      'list_files',
      'read_file',
      'search',
      'edit_file',
      'write_file',
      'run_check',
    ]);
  });
});

describe('prompt sets', () => {
  it('POST saves the next version of a name; GET lists them; a run names one only with its exact texts', async () => {
    const first = await postPromptSet(
      post('/prompt-sets', JSON.stringify({ name: 'terse', system: 'Be terse.' })),
    );
    expect(first.status).toBe(201);
    expect(await read(PromptSetSchema, first, 'POST /api/prompt-sets')).toMatchObject({
      name: 'terse',
      version: 1,
      system: 'Be terse.',
      task: '',
      toolDescriptions: {},
    });
    const second = await postPromptSet(
      post(
        '/prompt-sets',
        JSON.stringify({ name: 'terse', system: 'Be terse!', toolDescriptions: { search: 'Find text.' } }),
      ),
    );
    expect(await read(PromptSetSchema, second, 'POST /api/prompt-sets')).toMatchObject({ version: 2 });
    const list = await read(PromptSetListSchema, await getPromptSets(), 'GET /api/prompt-sets');
    expect(list.filter((s) => s.name === 'terse').map((s) => s.version)).toEqual([2, 1]);

    const config = {
      provider: { vendor: 'sim-anthropic' },
      clock: 'virtual',
      system: 'Be terse!',
      toolDescriptions: { search: 'Find text.' },
    };
    const id = await startRun({ config: { ...config, promptSet: { name: 'terse', version: 2 } } });
    const start = (await streamed(id))[0]!;
    expect(start.event === 'run_start' && start.config.promptSet).toEqual({ name: 'terse', version: 2 });
    const ok = await read(RunSummaryListSchema, await getRuns(new Request(`${BASE}/runs`)), 'GET /api/runs');
    expect(ok.find((r) => r.id === id)?.prompt_set).toEqual({ name: 'terse', version: 2 });

    const lie = await postRun(
      post('/runs', JSON.stringify({ config: { ...config, promptSet: { name: 'terse', version: 1 } } })),
    );
    expect(lie.status).toBe(400);
    expect((await readError(lie)).details).toEqual([
      'config.promptSet: system, toolDescriptions differ from "terse" v1; save them as a new version, or leave promptSet out',
    ]);
  });

  it('refuses a set without a name or naming a tool that does not exist', async () => {
    const nameless = await postPromptSet(post('/prompt-sets', JSON.stringify({ name: ' ', system: 'x' })));
    expect(nameless.status).toBe(400);
    expect((await readError(nameless)).details?.[0]).toMatch(/^name: /);
    const grep = await postPromptSet(
      post('/prompt-sets', JSON.stringify({ name: 'x', toolDescriptions: { grep: 'find' } })),
    );
    expect(grep.status).toBe(400);
    expect((await readError(grep)).details).toEqual([
      'toolDescriptions.grep: no such tool; the tools are list_files, read_file, search, edit_file, write_file, run_check',
    ]);
  });
});
