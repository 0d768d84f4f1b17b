import { describe, expect, it } from 'vitest';
import { jsonPost, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState, type RunViewState } from '@/lib/run-view/run-view-state';
import { getRunRegistry } from '@/lib/server';
import { RunRecordSchema } from '@/lib/protocol/http';
import { isPlaceholderConfig } from '@/lib/protocol';
import { POST as postRun } from '../route';
import { GET as getRun } from '../[id]/route';
import { GET as getOtel } from '../[id]/otel/route';
import { GET as getTrace } from '../[id]/trace/route';
import { POST as postImport } from './route';

// Loop Lab's own OTLP export, imported again, draws the same run: the folds the page draws
// from the two logs are equal in everything a person sees.
useTempDataDir('loop-lab-otlp-round-trip-');

const ctx = (id: string) => routeContext({ id });

async function finishedRun(config: Record<string, unknown>): Promise<string> {
  const created = await postRun(jsonPost('http://localhost/api/runs', { config }));
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await getRunRegistry().whenFinished(id);
  return id;
}

async function view(id: string): Promise<RunViewState> {
  const trace = await (await getTrace(new Request(`http://localhost/api/runs/${id}/trace`), ctx(id))).text();
  return foldRawEvents(
    initialRunViewState(),
    trace
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown),
  );
}

async function roundTrip(id: string): Promise<string> {
  const otel = await (await getOtel(new Request(`http://localhost/api/runs/${id}/otel`), ctx(id))).text();
  const imported = await postImport(jsonPost('http://localhost/api/runs/import', otel));
  expect(imported.status, await imported.clone().text()).toBe(201);
  return ((await imported.json()) as { id: string }).id;
}

/** What the page shows of a run: its config, vendor, turns (attempts, usage, errors, retries, blocks, tool calls with arguments), totals, verdict, end. */
function seen(v: RunViewState) {
  const { runId: _runId, ...rest } = v;
  return rest;
}

describe('OTLP export → import', () => {
  it('a successful run comes back whole: attempts with usage, tool arguments, config, vendor', async () => {
    const id = await finishedRun({
      provider: { vendor: 'sim-openai' },
      clock: 'virtual',
      seed: 4,
      preset: 'codesmith',
    });
    const copyId = await roundTrip(id);
    const [original, copy] = [await view(id), await view(copyId)];
    expect(seen(copy)).toEqual(seen(original));
    // What the old import lost, said outright.
    const attempts = copy.turns.flatMap((t) => t.attempts);
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.every((a) => a.result === undefined || a.result.inputTokens > 0)).toBe(true);
    const calls = copy.turns.flatMap((t) => t.toolCalls);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.some((c) => JSON.stringify(c.args) !== '{}')).toBe(true);
    expect(copy.config?.preset).toBe('codesmith');
    expect(copy.vendor).toBe('sim-openai');
    // The stored config is the run's, so Re-run offers what ran.
    const record = RunRecordSchema.parse(
      await (await getRun(new Request(`http://localhost/api/runs/${copyId}`), ctx(copyId))).json(),
    );
    expect(record.config).toEqual(original.config);
  }, 60_000);

  it('a failed run (every attempt a 500) is imported, its failed attempts and their errors with it', async () => {
    const faults = {
      rules: [
        { id: 'down', enabled: true, when: { kind: 'always' }, action: { type: 'http_error', status: 500 } },
      ],
      tools: [],
    };
    const id = await finishedRun({
      provider: { vendor: 'sim-anthropic' },
      clock: 'virtual',
      seed: 2,
      preset: 'codesmith',
      faults,
    });
    const original = await view(id);
    expect(original.terminate?.complete).toBe(false);
    const failed = original.turns.flatMap((t) => t.attempts).filter((a) => a.error);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    const copy = await view(await roundTrip(id));
    expect(seen(copy)).toEqual(seen(original));
    expect(
      copy.turns
        .flatMap((t) => t.attempts)
        .filter((a) => a.error)
        .map((a) => a.error!.status),
    ).toEqual(failed.map((a) => a.error!.status));
  }, 60_000);

  it('a foreign trace (GenAI spans, no Loop Lab log) is stored under the placeholder config the page does not offer to run', async () => {
    const id = await finishedRun({ provider: { vendor: 'sim-openai' }, clock: 'virtual', seed: 4 });
    const otel = JSON.parse(
      await (await getOtel(new Request(`http://localhost/api/runs/${id}/otel`), ctx(id))).text(),
    ) as {
      resourceSpans: { scopeSpans: { spans: { events?: unknown[] }[] }[] }[];
    };
    for (const r of otel.resourceSpans)
      for (const s of r.scopeSpans) for (const span of s.spans) delete span.events;
    const imported = await postImport(jsonPost('http://localhost/api/runs/import', JSON.stringify(otel)));
    expect(imported.status).toBe(201);
    const copyId = ((await imported.json()) as { id: string }).id;
    const record = RunRecordSchema.parse(
      await (await getRun(new Request(`http://localhost/api/runs/${copyId}`), ctx(copyId))).json(),
    );
    expect(isPlaceholderConfig(record.config)).toBe(true);
  }, 60_000);
});
