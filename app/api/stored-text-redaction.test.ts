import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getRunRegistry } from '@/lib/server';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { dispatch } from '@/scripts/api/dispatch-route';

// Text a person sends that the server stores — a prompt set, a cassette's name, source and note,
// a sweep's grid — and every error it answers, hold no key the server knows: the environment's,
// or one a request has sent it; as is, written backwards, or split by characters a key never
// contains. (A run's own log and config: stored-config-redaction.test.ts, key-audit.test.ts.)
const dataDir = useTempDataDir('loop-lab-stored-text-redaction-');
afterEach(() => vi.unstubAllEnvs());

const ENV_KEY = 'sk-ant-env-canary-0123456789abcdefABCD';
const REQUEST_KEY = 'sk-request-canary-9876543210fedcbaWXYZ';
const backwards = (key: string) => [...key].reverse().join('');
const splitBy = (key: string, sep: string, every = 5) =>
  key.match(new RegExp(`.{1,${every}}`, 'g'))!.join(sep);
/** Each key in each form a person or an upstream might write it. */
const quoted = (key: string) => [
  key,
  backwards(key),
  `${key.slice(0, 20)}|${key.slice(20)}`,
  splitBy(key, ' | '),
  splitBy(backwards(key), '\n', 7),
];
/** Pieces no redacted text may hold: each key's random part, forwards and backwards, in halves. */
const PIECES = [ENV_KEY, REQUEST_KEY].flatMap((key) => {
  const tail = key.slice(-20);
  return [tail.slice(0, 10), tail.slice(10), backwards(tail).slice(0, 10), backwards(tail).slice(10)];
});

/** Every piece of every key, in a text and in the store's files. */
function expectNoKey(text: string): void {
  for (const piece of PIECES) expect(text).not.toContain(piece);
  const skeleton = text.replace(/\\[nrt]|[^A-Za-z0-9_-]+/g, '');
  for (const key of [ENV_KEY, REQUEST_KEY])
    for (const form of [key, backwards(key)]) expect(skeleton).not.toContain(form);
}
function storeBytes(): string {
  const dir = dataDir();
  return fs
    .readdirSync(dir)
    .map((name) => fs.readFileSync(path.join(dir, name)).toString('latin1'))
    .join('\n');
}

/** A request key the server has been sent: a run that brought its own key. */
async function sendRequestKey(): Promise<void> {
  const run = await dispatch({
    method: 'POST',
    path: '/api/runs',
    body: JSON.stringify({
      config: { provider: { vendor: 'sim-openai', keySource: 'request' }, clock: 'virtual' },
      apiKey: REQUEST_KEY,
    }),
  });
  expect(run.status).toBe(201);
  await getRunRegistry().whenFinished(((await run.json()) as { id: string }).id);
}

describe('text a person sends, stored', () => {
  it('a prompt set quoting the keys stores and answers [redacted] (system, task, tool descriptions)', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', ENV_KEY);
    await sendRequestKey();
    const forms = [...quoted(ENV_KEY), ...quoted(REQUEST_KEY)];
    const saved = await dispatch({
      method: 'POST',
      path: '/api/prompt-sets',
      body: JSON.stringify({
        name: 'leaky',
        system: `You are careful. Keys: ${forms.join(' ; ')}.`,
        task: `Fix it (mine: ${forms.slice(5).join(', ')})`,
        toolDescriptions: { read_file: `Reads a file. ${forms[2]}` },
      }),
    });
    expect(saved.status).toBe(201);
    const list = await (await dispatch({ method: 'GET', path: '/api/prompt-sets' })).text();
    for (const text of [await saved.text(), list, storeBytes()]) expectNoKey(text);
    const [set] = JSON.parse(list) as {
      system: string;
      task: string;
      toolDescriptions: Record<string, string>;
    }[];
    expect(set!.system).toBe(`You are careful. Keys: ${Array(10).fill('[redacted]').join(' ; ')}.`);
    expect(set!.toolDescriptions.read_file).toBe('Reads a file. [redacted]');
  }, 60_000);

  it("a cassette file's name, source note and exchanges quoting the keys store and download [redacted]", async () => {
    vi.stubEnv('OPENAI_API_KEY', ENV_KEY);
    await sendRequestKey();
    const echo = `data: ${JSON.stringify({ error: { message: `Incorrect API key provided: ${backwards(REQUEST_KEY)}` } })}\n\n`;
    const imported = await dispatch({
      method: 'POST',
      path: '/api/cassettes',
      body: JSON.stringify({
        name: `pasted ${splitBy(REQUEST_KEY, '|', 6)}`,
        cassette: {
          format: 'loop-lab-cassette',
          version: 1,
          source: {
            kind: 'recorded',
            vendor: 'openai',
            model: 'gpt-4o',
            note: `recorded with ${ENV_KEY.slice(0, 19)}|${ENV_KEY.slice(19)} and ${splitBy(REQUEST_KEY, '|')}`,
          },
          clock: 'real',
          exchanges: [
            {
              n: 1,
              vendor: 'openai',
              dialect: 'openai',
              request: {
                method: 'POST',
                path: '/v1/chat/completions',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({
                  model: 'gpt-4o',
                  messages: [{ role: 'user', content: `my key is ${splitBy(ENV_KEY, '\n', 4)}` }],
                }),
              },
              response: {
                status: 401,
                headers: { 'content-type': 'text/event-stream' },
                after_ms: 10,
                chunks: [{ after_ms: 1, text: echo }],
                end: 'complete',
              },
            },
          ],
        },
      }),
    });
    expect(imported.status, await imported.clone().text()).toBe(201);
    const { id } = (await imported.json()) as { id: string };
    const file = await (
      await dispatch({ method: 'GET', path: `/api/cassettes/${encodeURIComponent(id)}` })
    ).text();
    const list = await (await dispatch({ method: 'GET', path: '/api/cassettes' })).text();
    for (const text of [file, list, storeBytes()]) expectNoKey(text);
    expect(file).toContain('recorded with [redacted] and [redacted]');
  }, 60_000);

  it("a sweep grid's name quoting the keys stores [redacted]", async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', ENV_KEY);
    await sendRequestKey();
    const created = await dispatch({
      method: 'POST',
      path: '/api/sweeps',
      body: JSON.stringify({
        name: `sweep ${backwards(REQUEST_KEY)} / ${splitBy(ENV_KEY, ' ')}`,
        configurations: [{ id: 'naive', preset: 'naive' }],
        seeds: { from: 1, to: 1 },
      }),
    });
    expect(created.status).toBe(201);
    const list = await (await dispatch({ method: 'GET', path: '/api/sweeps' })).text();
    for (const text of [list, storeBytes()]) expectNoKey(text);
    expect(list).toContain('sweep [redacted] / [redacted]');
  }, 60_000);
});

describe('an error answer', () => {
  it('never quotes a key, whatever field it arrived in: a property name, a tool name, a path, a body that is not JSON', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', ENV_KEY);
    const config = { provider: { vendor: 'sim-openai' }, clock: 'virtual' };
    const answers = [
      await dispatch({ method: 'POST', path: '/api/runs', body: JSON.stringify({ config, [ENV_KEY]: 1 }) }),
      await dispatch({
        method: 'POST',
        path: '/api/runs',
        body: JSON.stringify({ config: { ...config, [backwards(ENV_KEY)]: 1 } }),
      }),
      await dispatch({
        method: 'POST',
        path: '/api/runs',
        body: JSON.stringify({ config, apiKey: REQUEST_KEY, [REQUEST_KEY]: true }),
      }),
      await dispatch({
        method: 'POST',
        path: '/api/prompt-sets',
        body: JSON.stringify({ name: 'p', toolDescriptions: { [ENV_KEY]: 'x' } }),
      }),
      await dispatch({ method: 'GET', path: `/api/runs/${ENV_KEY}` }),
      await dispatch({ method: 'POST', path: '/api/runs', body: `{"config": ${ENV_KEY}}` }),
      await dispatch({ method: 'GET', path: '/api/runs', headers: { host: `${ENV_KEY}.example` } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 404, 400, 403]);
    for (const answer of answers) {
      const text = await answer.text();
      expect(text).toContain('[redacted]');
      expectNoKey(text);
      expect(text).not.toContain(ENV_KEY.slice(0, 10));
    }
  });
});
