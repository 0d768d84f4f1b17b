import { describe, expect, it } from 'vitest';
import { jsonPost, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { lessonBySlug, lessonRunConfig } from '@/lib/lessons';
import { ComparisonSchema } from '@/lib/protocol/http/compare';
import { POST as postRun } from '../runs/route';
import { GET as getEvents } from '../runs/[id]/events/route';
import { GET as getCompare } from './route';

// Two real runs on the simulated vendor (virtual clock), compared through the route.
const BASE = 'http://localhost/api';
useTempDataDir('loop-lab-compare-');

async function finishedRun(config: unknown): Promise<string> {
  const response = await postRun(jsonPost(`${BASE}/runs`, { config }));
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: string };
  await (await getEvents(new Request(`${BASE}/runs/${id}/events`), routeContext({ id }))).text();
  return id;
}

const compare = (query: string) => getCompare(new Request(`${BASE}/compare${query}`));

describe('GET /api/compare', () => {
  it('compares two runs of the same seed, one with the retry ladder off', async () => {
    const faults = {
      rules: [
        {
          id: 'f',
          enabled: true,
          when: { kind: 'requests', numbers: [2] },
          action: { type: 'http_error', status: 529 },
        },
      ],
      tools: [],
    };
    const on = await finishedRun({
      provider: { vendor: 'sim-anthropic' },
      clock: 'virtual',
      seed: 5,
      faults,
    });
    const off = await finishedRun({
      provider: { vendor: 'sim-anthropic' },
      clock: 'virtual',
      seed: 5,
      faults,
      recovery: { retry: { enabled: false } },
    });
    const response = await compare(`?a=${on}&b=${off}`);
    expect(response.status).toBe(200);
    const body = ComparisonSchema.parse(await response.json());
    expect(body.a).toMatchObject({ id: on, running: false, seed: 5 });
    expect(body.divergence?.turn).toBe(2);
    expect(body.turns.find((t) => t.diverged)?.turn).toBe(2);
    expect(body.config).toEqual([{ path: 'recovery.retry.enabled', a: 'true', b: 'false' }]);
    expect(body.totals.find((r) => r.id === 'errorsSeen')).toMatchObject({ a: 0, b: 1, better: 'a' });
  });

  it('judges a lesson’s pair by that lesson’s measure (?lesson=): Partial vs Empty crowns the Partial', async () => {
    const lesson = lessonBySlug('partial-vs-empty')!;
    const [on, off] = await Promise.all(
      (['on', 'off'] as const).map((side) =>
        finishedRun(lessonRunConfig(lesson, side, { clock: 'virtual' })),
      ),
    );
    const general = ComparisonSchema.parse(await (await compare(`?a=${on}&b=${off}`)).json());
    expect(general.totals.find((r) => r.id === 'complete')!.better).toBe('b');
    const judged = ComparisonSchema.parse(
      await (await compare(`?a=${on}&b=${off}&lesson=partial-vs-empty`)).json(),
    );
    expect(judged.totals.filter((r) => r.better !== null).map((r) => [r.id, r.better])).toEqual([
      ['durationMs', 'a'],
      ['usd', 'a'],
      ['wastedTokens', 'a'],
      ['attempts', 'a'],
    ]);
    const unknown = await compare(`?a=${on}&b=${off}&lesson=nope`);
    expect(unknown.status).toBe(404);
  });

  it('says which id is unknown, and what a request needs', async () => {
    const unknown = await compare('?a=nope&b=nada');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe(
      'No run with id "nope" (?a=): pick a run from the runs list',
    );
    const missing = await compare('?a=x');
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { details: string[] }).details.join(' ')).toContain(
      'b: the id of the second run is required',
    );
  });
});
