import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { jsonPost, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { proxy } from '@/proxy';
import { MAX_BODY_BYTES } from '@/lib/server';
import { POST as postRun } from './runs/route';
import { GET as getEvents } from './runs/[id]/events/route';
import { POST as postImport } from './runs/import/route';

const BASE = 'http://localhost/api';
useTempDataDir('loop-lab-limits-');

const json = (body: string) => jsonPost(`${BASE}/runs`, body);

async function errorOf(response: Response): Promise<{ status: number; error: string; details: string[] }> {
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  const body = (await response.json()) as { error: string; details?: string[] };
  return { status: response.status, error: body.error, details: body.details ?? [] };
}

describe('body limits counted in bytes while reading', () => {
  it('stops reading a chunked import that passes the limit and answers 413', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        if (pulled > 300 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request(`${BASE}/runs/import`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/x-ndjson' },
      duplex: 'half',
    } as RequestInit);
    const response = await postImport(request);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(MAX_BODY_BYTES + 4 * chunk.byteLength);
  });

  it('refuses a JSON body over its own 1 MB limit without a declared length', async () => {
    const big = JSON.stringify({
      config: { provider: { vendor: 'sim-openai' }, task: 'x'.repeat(2 * 1024 * 1024) },
    });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await postRun(
      new Request(`${BASE}/runs`, {
        method: 'POST',
        body: stream,
        headers: { 'Content-Type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
  });
});

describe('nesting limits', () => {
  it('answers a deeply nested run request with a 400 naming the field', async () => {
    const body = `{"config":{"provider":{"vendor":"sim-openai"},"faults":{"rules":[{"id":"x","when":{"kind":"always"},"action":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}]}}}`;
    const { status, error, details } = await errorOf(await postRun(json(body)));
    expect(status).toBe(400);
    expect(error).toContain('nests deeper than 64 levels');
    expect(details[0]).toMatch(/^config\.faults\.rules\.0\.action\.a\./);
    expect(details[0]).toContain('nested too deep');
  });

  it('answers a deeply nested import line with a 400 naming the line, not a 500', async () => {
    const lines = [
      JSON.stringify({
        run_id: 't',
        ts: 1,
        event: 'llm_call',
        iteration: 1,
        input_tokens: 1,
        output_tokens: 1,
      }),
      JSON.stringify({ run_id: 't', ts: 2, event: 'tool_call', iteration: 1, tool: 'x', args: 1 }).replace(
        '"args":1',
        `"args":${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      ),
    ].join('\n');
    const response = await postImport(
      new Request(`${BASE}/runs/import`, {
        method: 'POST',
        body: lines,
        headers: { 'Content-Type': 'application/x-ndjson' },
      }),
    );
    const { status, details } = await errorOf(response);
    expect(status).toBe(400);
    expect(details[0]).toMatch(/^line 2: nested deeper than \d+ levels at args\.0\.0/);
  });
});

describe('strict schemas', () => {
  const withFaults = (faults: unknown) =>
    json(JSON.stringify({ config: { provider: { vendor: 'sim-openai' }, clock: 'virtual', faults } }));

  it.each([
    [
      'a fault rule',
      {
        rules: [
          { id: 'r', when: { kind: 'always' }, action: { type: 'http_error', status: 529 }, colour: 'red' },
        ],
      },
      /^config\.faults\.rules\.0: .*colour/,
    ],
    [
      'a fault action',
      {
        rules: [
          { id: 'r', when: { kind: 'always' }, action: { type: 'http_error', status: 529, retryAfter: 5 } },
        ],
      },
      /^config\.faults\.rules\.0\.action: .*retryAfter/,
    ],
    [
      'a fault "when"',
      { rules: [{ id: 'r', when: { kind: 'always', p: 0.5 }, action: { type: 'http_error', status: 529 } }] },
      /^config\.faults\.rules\.0\.when: .*"p"/,
    ],
    [
      'a tool fault',
      { tools: [{ id: 't', tool: '*', kind: 'throw', probability: 1 }] },
      /^config\.faults\.tools\.0: .*probability/,
    ],
    ['the plan', { rules: [], extra: [] }, /^config\.faults: .*extra/],
  ])('rejects an unknown key in %s with a 400 naming it', async (_what, faults, detail) => {
    const { status, details } = await errorOf(await postRun(withFaults(faults)));
    expect(status).toBe(400);
    expect(details).toEqual(expect.arrayContaining([expect.stringMatching(detail)]));
  });

  it('takes as fallback model only a model the simulated vendor knows, and a plausible id for a real one', async () => {
    const sim = await errorOf(
      await postRun(
        json(
          JSON.stringify({
            config: {
              provider: { vendor: 'sim-anthropic' },
              recovery: { fallback: { model: 'gpt-sim-mini' } },
            },
          }),
        ),
      ),
    );
    expect(sim.status).toBe(400);
    expect(sim.details).toEqual([
      expect.stringMatching(
        /^config\.recovery\.fallback\.model: the simulated vendor sim-anthropic serves claude-sim-sonnet/,
      ),
    ]);
    const real = await errorOf(
      await postRun(
        json(
          JSON.stringify({
            config: {
              provider: { vendor: 'anthropic' },
              recovery: { fallback: { model: 'not a model <script>' } },
            },
            apiKey: 'sk-ant-test-0123456789',
          }),
        ),
      ),
    );
    expect(real.details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^config\.recovery\.fallback\.model: .*does not look like a model id/),
      ]),
    );
    const ok = await postRun(
      json(
        JSON.stringify({
          config: {
            provider: { vendor: 'sim-anthropic' },
            clock: 'virtual',
            recovery: { fallback: { model: 'claude-sim-haiku' } },
          },
        }),
      ),
    );
    expect(ok.status).toBe(201);
  });

  it('checks a cross-vendor fallback model against the fallback vendor’s models, not the run’s', async () => {
    const cross = (model: string, vendor = 'sim-openai') =>
      postRun(
        json(
          JSON.stringify({
            config: {
              provider: { vendor: 'sim-anthropic' },
              clock: 'virtual',
              recovery: { fallback: { model, vendor } },
            },
          }),
        ),
      );
    expect((await cross('gpt-sim-mini')).status).toBe(201);
    const wrong = await errorOf(await cross('claude-sim-haiku'));
    expect(wrong.status).toBe(400);
    expect(wrong.details).toEqual([
      expect.stringMatching(
        /^config\.recovery\.fallback\.model: the simulated vendor sim-openai serves gpt-sim/,
      ),
    ]);
    const noVendor = await errorOf(await cross('gpt-sim-mini', 'sim-nobody'));
    expect(noVendor.details).toEqual([
      expect.stringMatching(/^config\.recovery\.fallback\.vendor: no vendor "sim-nobody"/),
    ]);
  });
});

describe('resume points and paths', () => {
  it('accepts only plain decimal integers in Last-Event-ID and ?after=', async () => {
    const created = await postRun(
      json(JSON.stringify({ config: { provider: { vendor: 'sim-openai' }, clock: 'virtual' } })),
    );
    const { id } = (await created.json()) as { id: string };
    const ctx = routeContext({ id });
    for (const raw of ['0x10', '2e3', '1.0', '+1', '0b1', '01', '-2', '1e400', '99999999999999999999']) {
      const viaHeader = await getEvents(
        new Request(`${BASE}/runs/${id}/events`, { headers: { 'Last-Event-ID': raw } }),
        ctx,
      );
      expect(viaHeader.status, raw).toBe(400);
      expect((await errorOf(viaHeader)).error).toContain('Last-Event-ID header');
      const viaQuery = await getEvents(
        new Request(`${BASE}/runs/${id}/events?after=${encodeURIComponent(raw)}`),
        ctx,
      );
      expect(viaQuery.status, raw).toBe(400);
    }
    const fine = await getEvents(
      new Request(`${BASE}/runs/${id}/events`, { headers: { 'Last-Event-ID': '2' } }),
      ctx,
    );
    expect(fine.status).toBe(200);
    await fine.body?.cancel();
  });

  it('answers a malformed percent-encoding in an API path with a JSON 400 before any route runs', async () => {
    for (const bad of ['/api/runs/%E0%A4%A/events', '/api/runs/%zz', '/api/runs/%']) {
      const response = await proxy(new NextRequest(`http://localhost${bad}`));
      expect(response?.status, bad).toBe(400);
      expect(((await response!.json()) as { error: string }).error).toContain('malformed percent-encoding');
    }
    expect(await proxy(new NextRequest('http://localhost/api/runs/ok%20id/events'))).toBeUndefined();
  });
});
