import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonPost, readSseEvents, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { startStandIns, type StandIns } from '@/lib/audit/vendor-stand-ins';
import type { RunEvent } from '@/lib/protocol';
import { GET as getRuns, POST as postRun } from './route';
import { GET as getRun } from './[id]/route';
import { GET as getEvents } from './[id]/events/route';
import { GET as getForks } from './[id]/forks/route';
import { GET as getTrace } from './[id]/trace/route';

// A fork onto an OpenAI-compatible endpoint by base URL, whole stack: the route, the fork plan,
// the real openai SDK over real HTTP to a local stand-in (the simulated vendor served on
// 127.0.0.1, lib/audit), the store. The key goes to the stand-in and nowhere else.
const BASE = 'http://localhost/api';
const KEY = 'sk-fork-canary-7f3e9a01c2d4b5e6';
const dataDir = useTempDataDir('loop-lab-fork-endpoint-');
let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns({ timeScale: 0.01 });
});
afterAll(async () => {
  await standIns?.close();
});
afterEach(() => vi.unstubAllEnvs());

const ctx = (id: string) => routeContext({ id });
const post = (body: unknown) => postRun(jsonPost(`${BASE}/runs`, body));

async function started(body: unknown): Promise<{ id: string; text: string }> {
  const response = await post(body);
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return { id: (JSON.parse(text) as { id: string }).id, text };
}

async function streamed(id: string): Promise<{ events: RunEvent[]; text: string }> {
  const text = await (await getEvents(new Request(`${BASE}/runs/${id}/events`), ctx(id))).text();
  return { events: await readSseEvents<RunEvent>(new Response(text)), text };
}

/** What the model said and what the tools answered in turns 1..k, ids included. */
function turnsUpTo(events: RunEvent[], k: number): unknown[] {
  return events.flatMap((e): unknown[] => {
    if (!('iteration' in e) || typeof e.iteration !== 'number' || e.iteration < 1 || e.iteration > k)
      return [];
    if (e.event === 'llm_call') return [{ turn: e.iteration, reply: e.message }];
    if (e.event === 'tool_call')
      return [{ turn: e.iteration, call: e.call_id, args: e.args, result: e.result }];
    return [];
  });
}

async function storedParent(): Promise<{ id: string; events: RunEvent[] }> {
  const { id } = await started({
    config: {
      provider: { vendor: 'sim-openai', model: 'gpt-sim-4o' },
      scenario: 'fix-failing-test',
      clock: 'virtual',
      seed: 5,
    },
  });
  return { id, events: (await streamed(id)).events };
}

describe('POST /api/runs { fork } onto an OpenAI-compatible endpoint', () => {
  it('runs the child against the chosen base URL with the request key: first k turns the parent’s, a terminate, the key nowhere else', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env-canary-should-not-travel-0123');
    const parent = await storedParent();
    const standIn = standIns.requestChosen.openai;
    vi.stubEnv('LOOP_LAB_ALLOWED_REQUEST_HOSTS', new URL(standIn.baseUrl).host); // on 127.0.0.1: named, for runs with their own key
    const k = 2;
    const created = await started({
      fork: {
        runId: parent.id,
        atTurn: k,
        provider: 'openai-compatible',
        model: 'gpt-sim-4o',
        baseUrl: standIn.baseUrl,
      },
      apiKey: KEY,
    });
    const child = await streamed(created.id);

    expect(turnsUpTo(child.events, k)).toEqual(turnsUpTo(parent.events, k));
    expect(turnsUpTo(child.events, k).length).toBeGreaterThan(2);
    const start = child.events.find((e) => e.event === 'run_start');
    expect(start).toMatchObject({
      config: {
        provider: { vendor: 'openai-compatible', baseUrl: standIn.baseUrl, keySource: 'request' },
        clock: 'real',
      },
    });
    expect(child.events.find((e) => e.event === 'swap')).toMatchObject({
      cause: 'fork',
      to_vendor: 'openai-compatible',
    });
    const live = child.events.filter((e) => e.event === 'llm_call' && e.iteration > k);
    expect(live.length).toBeGreaterThan(0);
    expect(child.events.at(-1)).toMatchObject({ event: 'terminate', reason: 'end_turn' });
    // The request key reached the stand-in, on every live request; the server's own key never did.
    expect(standIn.keysReceived.length).toBeGreaterThanOrEqual(live.length);
    expect(new Set(standIn.keysReceived)).toEqual(new Set([KEY]));

    // …and nowhere else: not the responses, the log, the trace, the lists, the database files.
    const bodies = [
      created.text,
      child.text,
      await (await getRun(new Request(`${BASE}/runs/${created.id}`), ctx(created.id))).text(),
      await (await getTrace(new Request(`${BASE}/runs/${created.id}/trace`), ctx(created.id))).text(),
      await (await getForks(new Request(`${BASE}/runs/${parent.id}/forks`), ctx(parent.id))).text(),
      await (await getRuns(new Request(`${BASE}/runs`))).text(),
    ];
    for (const body of bodies) expect(body).not.toContain(KEY);
    for (const file of fs.readdirSync(dataDir())) {
      expect(fs.readFileSync(path.join(dataDir(), file)).includes(KEY), file).toBe(false);
    }
  });

  it('refuses, naming the field, a base URL without a request key, and one that is not http(s)', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env-canary-should-not-travel-0123');
    const parent = await storedParent();
    const details = async (body: unknown): Promise<string[]> => {
      const response = await post(body);
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toContain('canary');
      return (JSON.parse(text) as { details: string[] }).details;
    };
    const fork = { runId: parent.id, atTurn: 1, provider: 'openai-compatible', model: 'gpt-sim-4o' };
    expect(await details({ fork: { ...fork, baseUrl: 'https://collector.example/v1' } })).toEqual([
      expect.stringMatching(
        /^apiKey: provider\.baseUrl https:\/\/collector\.example\/v1 is not a URL this server's environment names/,
      ),
    ]);
    expect(await details({ fork: { ...fork, baseUrl: 'file:///etc/passwd' }, apiKey: KEY })).toEqual([
      expect.stringMatching(/^fork\.baseUrl: must be an http:\/\/ or https:\/\/ URL/),
    ]);
    expect(await details({ fork: { ...fork, apiKey: KEY } })).toEqual([
      "fork.apiKey: send the key as the body's apiKey, beside fork, not inside it",
    ]);
  });
});
