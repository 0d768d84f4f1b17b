import { dialectOf, vendorRow, vendorRows, type Vendor } from '@/lib/protocol';
import { allCanaries, countCanaries, type Canaries } from './canaries';
import type { StandIn, StandIns } from './vendor-stand-ins';

/** One HTTP exchange with the API under audit, over real HTTP or straight into the route handlers. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}
export interface ApiResponse {
  status: number;
  /** Every response header, one `name: value` a line. */
  headers: string;
  body: string;
}
export type ApiTransport = (request: ApiRequest) => Promise<ApiResponse>;

export interface KeyAuditCase {
  name: string;
  body: { config: Record<string, unknown>; apiKey?: string };
  /** Extra request headers (a cross-site Origin). */
  headers?: Record<string, string>;
  expect: 201 | 400 | 403;
}

export interface KeyAuditOutcome {
  name: string;
  status: number;
  expected: number;
  /** The terminate reason of a run that started. */
  reason?: string;
}

export interface KeyAuditResult {
  outcomes: KeyAuditOutcome[];
  /** Every response body and header the audit received, concatenated. */
  responseText: string;
  responses: number;
  /** Canary occurrences in all responses (JSON, SSE, JSONL traces, errors). */
  responseHits: number;
  /** Requests that reached a request-chosen stand-in, and how many carried an environment key. */
  requestChosenRequests: number;
  envKeysAtRequestChosen: number;
}

/**
 * The runs the audit makes: every vendor, with the environment's key and with a request key,
 * against stand-ins named by the environment, chosen by the request, and one that echoes the
 * key it received; then the attacks that must be refused (a request-chosen URL without a
 * request key, a cross-site post).
 */
export function keyAuditCases(options: {
  standIns: StandIns;
  canaries: Canaries;
  timeScale: number;
}): KeyAuditCase[] {
  const { standIns, canaries, timeScale } = options;
  const key = canaries.request;
  const real = { clock: 'real', timeScale, budgets: { maxIterations: 3 } };
  // The stand-ins serve the simulated models: the default of the first simulated vendor on the same wire.
  const model = (vendor: Vendor) =>
    vendorRows().find((row) => row.simulated && row.wire === dialectOf(vendor))?.defaultModel ?? '';
  const at = (standIn: StandIn) => standIn.baseUrl;
  const run = (vendor: Vendor, extra: { baseUrl?: string; apiKey?: string }) => ({
    config: {
      provider: {
        vendor,
        model: model(vendor),
        keySource: extra.apiKey ? 'request' : 'env',
        ...(extra.baseUrl ? { baseUrl: extra.baseUrl } : {}),
      },
      ...real,
    },
    ...(extra.apiKey ? { apiKey: extra.apiKey } : {}),
  });
  const cases: KeyAuditCase[] = [
    {
      name: 'sim-anthropic',
      body: { config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual' } },
      expect: 201,
    },
    {
      name: 'sim-anthropic, request key',
      body: {
        config: { provider: { vendor: 'sim-anthropic', keySource: 'request' }, clock: 'virtual' },
        apiKey: key,
      },
      expect: 201,
    },
    {
      name: 'sim-openai',
      body: { config: { provider: { vendor: 'sim-openai' }, clock: 'virtual' } },
      expect: 201,
    },
    {
      name: 'sim-openai, request key',
      body: {
        config: { provider: { vendor: 'sim-openai', keySource: 'request' }, clock: 'virtual' },
        apiKey: key,
      },
      expect: 201,
    },
    {
      name: 'sim-openai-responses',
      body: { config: { provider: { vendor: 'sim-openai-responses' }, clock: 'virtual' } },
      expect: 201,
    },
    {
      name: 'sim-openai-responses, request key',
      body: {
        config: { provider: { vendor: 'sim-openai-responses', keySource: 'request' }, clock: 'virtual' },
        apiKey: key,
      },
      expect: 201,
    },
  ];
  // The Responses API (openai-responses) is OpenAI's address and key: its stand-ins serve both APIs.
  for (const vendor of vendorRows().flatMap((row) => (row.simulated ? [] : [row.id]))) {
    // Stand-ins are per SDK (each vendor's key family).
    const d = vendorRow(vendor).sdk;
    cases.push(
      { name: `${vendor}, env key, env-named URL`, body: run(vendor, {}), expect: 201 },
      {
        name: `${vendor}, request key, request-chosen URL`,
        body: run(vendor, { baseUrl: at(standIns.requestChosen[d]), apiKey: key }),
        expect: 201,
      },
      {
        name: `${vendor}, env key, allow-listed URL echoing the key`,
        body: run(vendor, { baseUrl: at(standIns.echo[d]) }),
        expect: 201,
      },
      {
        name: `${vendor}, request key, URL echoing the key`,
        body: run(vendor, { baseUrl: at(standIns.echo[d]), apiKey: key }),
        expect: 201,
      },
      {
        name: `${vendor}, request-chosen URL without a key (refused)`,
        body: run(vendor, { baseUrl: at(standIns.requestChosen[d]) }),
        expect: 400,
      },
      {
        name: `${vendor}, env key, allow-listed URL streaming the key split across deltas`,
        body: run(vendor, { baseUrl: at(standIns.splitEcho[d]) }),
        expect: 201,
      },
      {
        name: `${vendor}, request key, URL streaming the key split across deltas`,
        body: run(vendor, { baseUrl: at(standIns.splitEcho[d]), apiKey: key }),
        expect: 201,
      },
      {
        name: `${vendor}, request key with CRLF inside (refused)`,
        body: run(vendor, { baseUrl: at(standIns.echo[d]), apiKey: `${key}\r\nX-Injected: 1` }),
        expect: 400,
      },
    );
  }
  cases.push({
    name: 'cross-site post (refused)',
    body: run('anthropic', { baseUrl: at(standIns.requestChosen.anthropic), apiKey: key }),
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    expect: 403,
  });
  return cases;
}

/**
 * Makes every case's request, follows each run to its end (SSE), reads its summary and its
 * trace, lists the runs, and counts canaries in everything that came back.
 */
export async function driveKeyAudit(options: {
  transport: ApiTransport;
  standIns: StandIns;
  canaries: Canaries;
  timeScale: number;
  /** Headers a same-origin page of the app sends (Origin and Sec-Fetch-Site for real HTTP). */
  ownHeaders?: Record<string, string>;
}): Promise<KeyAuditResult> {
  const { transport, standIns, canaries } = options;
  const texts: string[] = [];
  const call = async (request: ApiRequest): Promise<ApiResponse> => {
    const response = await transport(request);
    texts.push(response.headers, response.body);
    return response;
  };
  const outcomes: KeyAuditOutcome[] = [];
  for (const item of keyAuditCases(options)) {
    const created = await call({
      method: 'POST',
      path: '/api/runs',
      body: JSON.stringify(item.body),
      headers: { 'content-type': 'application/json', ...options.ownHeaders, ...item.headers },
    });
    const outcome: KeyAuditOutcome = { name: item.name, status: created.status, expected: item.expect };
    outcomes.push(outcome);
    if (created.status !== 201) continue;
    const { id } = JSON.parse(created.body) as { id: string };
    const stream = await call({ method: 'GET', path: `/api/runs/${id}/events` });
    const last = stream.body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .at(-1);
    outcome.reason = last ? (JSON.parse(last.slice(6)) as { reason?: string }).reason : undefined;
    await call({ method: 'GET', path: `/api/runs/${id}` });
    await call({ method: 'GET', path: `/api/runs/${id}/trace` });
    await call({ method: 'GET', path: `/api/runs/${id}/otel` });
    await call({ method: 'GET', path: `/api/runs/${id}/view` });
    // Its wire: every header the SDK sent (the key's replaced by a placeholder), every byte it received.
    await call({ method: 'GET', path: `/api/runs/${id}/wire` });
    // The run's traffic as a cassette (requests as sent, responses as received — an echoed key included), then the file itself.
    const saved = await call({
      method: 'POST',
      path: `/api/runs/${id}/cassette`,
      body: '{}',
      headers: { 'content-type': 'application/json', ...options.ownHeaders },
    });
    outcomes.push({ name: `${item.name}: saved as a cassette`, status: saved.status, expected: 201 });
    if (saved.status === 201)
      await call({ method: 'GET', path: `/api/cassettes/${(JSON.parse(saved.body) as { id: string }).id}` });
  }
  // A trace written elsewhere, quoting the server's keys as property names and values.
  const imported = await call({
    method: 'POST',
    path: '/api/runs/import',
    body: keyNamedTrace(canaries),
    headers: { 'content-type': 'application/x-ndjson', ...options.ownHeaders },
  });
  outcomes.push({
    name: 'import quoting the env keys as property names',
    status: imported.status,
    expected: 201,
  });
  if (imported.status === 201) {
    const { id } = JSON.parse(imported.body) as { id: string };
    for (const p of [
      `/api/runs/${id}`,
      `/api/runs/${id}/trace`,
      `/api/runs/${id}/events`,
      `/api/runs/${id}/otel`,
    ])
      await call({ method: 'GET', path: p });
  }
  // A cassette file written elsewhere that quotes the server's keys in its request and its response.
  const cassette = await call({
    method: 'POST',
    path: '/api/cassettes',
    body: keyQuotingCassette(canaries),
    headers: { 'content-type': 'application/json', ...options.ownHeaders },
  });
  outcomes.push({ name: 'cassette import quoting the env keys', status: cassette.status, expected: 201 });
  if (cassette.status === 201)
    await call({ method: 'GET', path: `/api/cassettes/${(JSON.parse(cassette.body) as { id: string }).id}` });
  await call({ method: 'GET', path: '/api/cassettes' });

  // A prompt set quoting every key, as is, backwards and split: stored and listed.
  const promptSet = await call({
    method: 'POST',
    path: '/api/prompt-sets',
    body: JSON.stringify({
      name: 'quoting the keys',
      system: `Keys: ${allCanaries(canaries).flatMap(mangled).join(' ; ')}`,
      task: `Use ${mangled(canaries.request).join(' or ')}`,
      toolDescriptions: { read_file: `Reads a file. ${mangled(canaries.envOpenai)[2]}` },
    }),
    headers: { 'content-type': 'application/json', ...options.ownHeaders },
  });
  outcomes.push({
    name: 'prompt set quoting the env and request keys',
    status: promptSet.status,
    expected: 201,
  });
  await call({ method: 'GET', path: '/api/prompt-sets' });

  // Errors that would quote a key sent where a name belongs: a 400 each.
  const config = { provider: { vendor: 'sim-openai' }, clock: 'virtual' };
  for (const [name, body] of [
    ['400 for an env key sent as a property name', { config, [canaries.envAnthropic]: 1 }],
    [
      '400 for a request key sent as a property name',
      { config, apiKey: canaries.request, [canaries.request]: 1 },
    ],
    [
      '400 for an env key written backwards as a config property',
      { config: { ...config, [reverse(canaries.envOpenai)]: 1 } },
    ],
  ] as const) {
    const refused = await call({
      method: 'POST',
      path: '/api/runs',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...options.ownHeaders },
    });
    outcomes.push({ name, status: refused.status, expected: 400 });
  }

  // A sweep with a key sent beside it, on an endpoint that streams the key back (backwards and split too).
  const sweep = await call({
    method: 'POST',
    path: '/api/sweeps',
    body: JSON.stringify({
      name: `sweep ${mangled(canaries.request)[2]}`,
      configurations: [{ id: 'naive', preset: 'naive' }],
      vendors: [],
      endpoints: [
        { id: 'echo', vendor: 'openai', baseUrl: standIns.splitEcho.openai.baseUrl, keySource: 'request' },
      ],
      models: ['gpt-sim-4o'],
      seeds: { from: 1, to: 2 },
      timeScale: options.timeScale,
      apiKeys: { echo: canaries.request },
    }),
    headers: { 'content-type': 'application/json', ...options.ownHeaders },
  });
  outcomes.push({
    name: 'sweep with apiKeys on an endpoint streaming the key back',
    status: sweep.status,
    expected: 201,
  });
  if (sweep.status === 201) {
    const { id } = JSON.parse(sweep.body) as { id: string };
    const ended = await sweepEnd({ transport, id });
    outcomes.push({
      name: `sweep with apiKeys: ${ended}`,
      status: ended === 'completed' ? 200 : 500,
      expected: 200,
    });
    await call({ method: 'GET', path: `/api/sweeps/${id}` });
    const runs = await call({ method: 'GET', path: `/api/sweeps/${id}/runs` });
    const runIds =
      runs.status === 200 ? (JSON.parse(runs.body) as { run_id: string }[]).map((r) => r.run_id) : [];
    outcomes.push({
      name: 'sweep with apiKeys: its runs stored',
      status: runIds.length === 2 ? 200 : 500,
      expected: 200,
    });
    for (const runId of runIds) {
      for (const leaf of ['', '/trace', '/otel', '/view', '/wire', '/events'])
        await call({ method: 'GET', path: `/api/runs/${runId}${leaf}` });
    }
    await call({ method: 'GET', path: `/api/sweeps/${id}/export` });
    await call({ method: 'GET', path: '/api/sweeps' });
  }
  await call({ method: 'GET', path: '/api/runs' });

  const responseText = texts.join('\n');
  const chosen = [standIns.requestChosen.anthropic, standIns.requestChosen.openai].flatMap(
    (s) => s.keysReceived,
  );
  return {
    outcomes,
    responseText,
    responses: texts.length / 2,
    responseHits: countCanaries(responseText, allCanaries(canaries)),
    requestChosenRequests: chosen.length,
    envKeysAtRequestChosen: chosen.filter(
      (k) => k.includes(canaries.envAnthropic) || k.includes(canaries.envOpenai),
    ).length,
  };
}

/** A key as a person or an upstream might mangle it: written backwards, split by `|`, split every few characters by ` | `, by line breaks. */
function mangled(key: string): string[] {
  const every = (n: number, sep: string) => key.match(new RegExp(`.{1,${n}}`, 'g'))!.join(sep);
  return [reverse(key), `${key.slice(0, 20)}|${key.slice(20)}`, every(5, ' | '), reverse(every(7, '\n'))];
}

function reverse(text: string): string {
  return [...text].reverse().join('');
}

/** Waits for a sweep to end (its status no longer queued or running), polling its summary. */
async function sweepEnd({ transport, id }: { transport: ApiTransport; id: string }): Promise<string> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const response = await transport({ method: 'GET', path: `/api/sweeps/${id}` });
    const now =
      response.status === 200
        ? (JSON.parse(response.body) as { sweep: { status: string } }).sweep.status
        : undefined;
    if (now && now !== 'queued' && now !== 'running') return now;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return 'still running after 120 s';
}

/** A plain tracer's trace whose tool arguments use the environment's keys as property names (and values). */
function keyNamedTrace(canaries: Canaries): string {
  const t0 = 1_735_689_600;
  const lines = [
    {
      run_id: 'elsewhere',
      ts: t0,
      event: 'llm_call',
      iteration: 1,
      input_tokens: 10,
      output_tokens: 5,
      usd_so_far: 0.001,
      stop_reason: 'tool_use',
      latency_ms: 20,
    },
    {
      run_id: 'elsewhere',
      ts: t0 + 0.1,
      event: 'tool_call',
      iteration: 1,
      tool: 'read_file',
      is_error: false,
      result_chars: 2,
      args: {
        [canaries.envAnthropic]: canaries.envOpenai,
        headers: { [`Bearer ${canaries.envOpenai}`]: 1 },
        mangled: mangled(canaries.envAnthropic),
      },
    },
    { run_id: 'elsewhere', ts: t0 + 0.2, event: 'terminate', reason: 'done', complete: true },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

/** An import body: a cassette whose request carries the environment's keys as a header value and in its body, and whose response echoes one. */
function keyQuotingCassette(canaries: Canaries): string {
  const echo = `data: ${JSON.stringify({ error: { message: `Incorrect API key provided: ${canaries.envOpenai} (${mangled(canaries.envOpenai).join(', ')})` } })}\n\n`;
  return JSON.stringify({
    name: `pasted ${canaries.envAnthropic}`,
    cassette: {
      format: 'loop-lab-cassette',
      version: 1,
      source: {
        kind: 'recorded',
        vendor: 'openai',
        model: 'gpt-4o',
        note: `recorded with ${canaries.envOpenai}, ${mangled(canaries.envAnthropic).join(', ')}`,
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
            headers: { 'content-type': 'application/json', 'x-note': `Bearer ${canaries.envOpenai}` },
            body: JSON.stringify({
              model: 'gpt-4o',
              messages: [{ role: 'user', content: `my key is ${canaries.envAnthropic}` }],
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
  });
}
