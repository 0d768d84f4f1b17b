import { describe, expect, it } from 'vitest';
import { jsonPost, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { parseEventJson, type RunEvent } from '@/lib/protocol';
import { getRunRegistry } from '@/lib/server';
import { POST as postRun } from '../route';
import { GET as getOtel } from '../[id]/otel/route';
import { POST as postImport } from './route';
import { GET as getTrace } from '../[id]/trace/route';

// A run out as OTLP/JSON through GET /api/runs/:id/otel, and back in through the import.
useTempDataDir('loop-lab-otlp-import-');

const ctx = (id: string) => routeContext({ id });
const events = async (id: string): Promise<RunEvent[]> =>
  (await (await getTrace(new Request(`http://localhost/api/runs/${id}/trace`), ctx(id))).text())
    .trim()
    .split('\n')
    .map((l) => parseEventJson(l));

describe('OTLP export and import', () => {
  it('GET /api/runs/:id/otel serves the run as OTLP/JSON, and importing it draws the same turns', async () => {
    const created = await postRun(
      jsonPost('http://localhost/api/runs', {
        config: { provider: { vendor: 'sim-openai' }, clock: 'virtual', seed: 4 },
      }),
    );
    const { id } = (await created.json()) as { id: string };
    await getRunRegistry().whenFinished(id);

    const otel = await getOtel(new Request(`http://localhost/api/runs/${id}/otel`), ctx(id));
    expect(otel.status).toBe(200);
    expect(otel.headers.get('content-disposition')).toContain('.otlp.json');
    const body = await otel.text();

    const imported = await postImport(jsonPost('http://localhost/api/runs/import', body));
    expect(imported.status).toBe(201);
    const copy = await events(((await imported.json()) as { id: string }).id);
    const original = await events(id);
    const turns = (log: RunEvent[]) =>
      log
        .filter((e) => e.event === 'llm_call')
        .map((e) => (e.event === 'llm_call' ? [e.input_tokens, e.output_tokens] : []));
    expect(turns(copy)).toEqual(turns(original));
    expect(
      copy.filter((e) => e.event === 'tool_call').map((e) => (e.event === 'tool_call' ? e.tool : '')),
    ).toEqual(
      original.filter((e) => e.event === 'tool_call').map((e) => (e.event === 'tool_call' ? e.tool : '')),
    );
    expect(copy.at(-1)).toMatchObject({ event: 'terminate', complete: true });

    const bad = await postImport(
      jsonPost('http://localhost/api/runs/import', '{"resourceSpans": [{"scopeSpans": 3}]}'),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/OTLP/);
    expect((await getOtel(new Request('http://localhost/api/runs/nope/otel'), ctx('nope'))).status).toBe(404);
  }, 60_000);
});
