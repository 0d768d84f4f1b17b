import type { Vendor } from '@/lib/protocol';
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
export function keyAuditCases(options: { standIns: StandIns; canaries: Canaries; timeScale: number }): KeyAuditCase[] {
  const { standIns, canaries, timeScale } = options;
  const key = canaries.request;
  const real = { clock: 'real', timeScale, budgets: { maxIterations: 3 } };
  const model = (vendor: Vendor) => (vendor === 'anthropic' ? 'claude-sim-sonnet' : vendor === 'openai-responses' ? 'gpt-sim-5' : 'gpt-sim-4o');
  const at = (standIn: StandIn) => standIn.baseUrl;
  const run = (vendor: Vendor, extra: { baseUrl?: string; apiKey?: string }) => ({
    config: {
      provider: { vendor, model: model(vendor), keySource: extra.apiKey ? 'request' : 'env', ...(extra.baseUrl ? { baseUrl: extra.baseUrl } : {}) },
      ...real,
    },
    ...(extra.apiKey ? { apiKey: extra.apiKey } : {}),
  });
  const dialectOf = (vendor: Vendor): 'anthropic' | 'openai' => (vendor === 'anthropic' ? 'anthropic' : 'openai');
  const cases: KeyAuditCase[] = [
    { name: 'sim-anthropic', body: { config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual' } }, expect: 201 },
    {
      name: 'sim-anthropic, request key',
      body: { config: { provider: { vendor: 'sim-anthropic', keySource: 'request' }, clock: 'virtual' }, apiKey: key },
      expect: 201,
    },
    { name: 'sim-openai', body: { config: { provider: { vendor: 'sim-openai' }, clock: 'virtual' } }, expect: 201 },
    {
      name: 'sim-openai, request key',
      body: { config: { provider: { vendor: 'sim-openai', keySource: 'request' }, clock: 'virtual' }, apiKey: key },
      expect: 201,
    },
    { name: 'sim-openai-responses', body: { config: { provider: { vendor: 'sim-openai-responses' }, clock: 'virtual' } }, expect: 201 },
    {
      name: 'sim-openai-responses, request key',
      body: { config: { provider: { vendor: 'sim-openai-responses', keySource: 'request' }, clock: 'virtual' }, apiKey: key },
      expect: 201,
    },
  ];
  // The Responses API (openai-responses) is OpenAI's address and key: its stand-ins serve both APIs.
  for (const vendor of ['anthropic', 'openai', 'openai-responses', 'openai-compatible'] as const) {
    const d = dialectOf(vendor);
    cases.push(
      { name: `${vendor}, env key, env-named URL`, body: run(vendor, {}), expect: 201 },
      { name: `${vendor}, request key, request-chosen URL`, body: run(vendor, { baseUrl: at(standIns.requestChosen[d]), apiKey: key }), expect: 201 },
      { name: `${vendor}, env key, allow-listed URL echoing the key`, body: run(vendor, { baseUrl: at(standIns.echo[d]) }), expect: 201 },
      { name: `${vendor}, request key, URL echoing the key`, body: run(vendor, { baseUrl: at(standIns.echo[d]), apiKey: key }), expect: 201 },
      { name: `${vendor}, request-chosen URL without a key (refused)`, body: run(vendor, { baseUrl: at(standIns.requestChosen[d]) }), expect: 400 },
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
    // The run's traffic as a cassette (requests as sent, responses as received — an echoed key included), then the file itself.
    const saved = await call({
      method: 'POST',
      path: `/api/runs/${id}/cassette`,
      body: '{}',
      headers: { 'content-type': 'application/json', ...options.ownHeaders },
    });
    outcomes.push({ name: `${item.name}: saved as a cassette`, status: saved.status, expected: 201 });
    if (saved.status === 201) await call({ method: 'GET', path: `/api/cassettes/${(JSON.parse(saved.body) as { id: string }).id}` });
  }
  // A trace written elsewhere, quoting the server's keys as property names and values.
  const imported = await call({
    method: 'POST',
    path: '/api/runs/import',
    body: keyNamedTrace(canaries),
    headers: { 'content-type': 'application/x-ndjson', ...options.ownHeaders },
  });
  outcomes.push({ name: 'import quoting the env keys as property names', status: imported.status, expected: 201 });
  if (imported.status === 201) {
    const { id } = JSON.parse(imported.body) as { id: string };
    for (const p of [`/api/runs/${id}`, `/api/runs/${id}/trace`, `/api/runs/${id}/events`, `/api/runs/${id}/otel`]) await call({ method: 'GET', path: p });
  }
  // A cassette file written elsewhere that quotes the server's keys in its request and its response.
  const cassette = await call({
    method: 'POST',
    path: '/api/cassettes',
    body: keyQuotingCassette(canaries),
    headers: { 'content-type': 'application/json', ...options.ownHeaders },
  });
  outcomes.push({ name: 'cassette import quoting the env keys', status: cassette.status, expected: 201 });
  if (cassette.status === 201) await call({ method: 'GET', path: `/api/cassettes/${(JSON.parse(cassette.body) as { id: string }).id}` });
  await call({ method: 'GET', path: '/api/cassettes' });
  await call({ method: 'GET', path: '/api/runs' });

  const responseText = texts.join('\n');
  const chosen = [standIns.requestChosen.anthropic, standIns.requestChosen.openai].flatMap((s) => s.keysReceived);
  return {
    outcomes,
    responseText,
    responses: texts.length / 2,
    responseHits: countCanaries(responseText, allCanaries(canaries)),
    requestChosenRequests: chosen.length,
    envKeysAtRequestChosen: chosen.filter((k) => k.includes(canaries.envAnthropic) || k.includes(canaries.envOpenai)).length,
  };
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
      args: { [canaries.envAnthropic]: canaries.envOpenai, headers: { [`Bearer ${canaries.envOpenai}`]: 1 } },
    },
    { run_id: 'elsewhere', ts: t0 + 0.2, event: 'terminate', reason: 'done', complete: true },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

/** An import body: a cassette whose request carries the environment's keys as a header value and in its body, and whose response echoes one. */
function keyQuotingCassette(canaries: Canaries): string {
  const echo = `data: ${JSON.stringify({ error: { message: `Incorrect API key provided: ${canaries.envOpenai}` } })}\n\n`;
  return JSON.stringify({
    name: `pasted ${canaries.envAnthropic}`,
    cassette: {
      format: 'loop-lab-cassette',
      version: 1,
      source: { kind: 'recorded', vendor: 'openai', model: 'gpt-4o', note: `recorded with ${canaries.envOpenai}` },
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
            body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: `my key is ${canaries.envAnthropic}` }] }),
          },
          response: { status: 401, headers: { 'content-type': 'text/event-stream' }, after_ms: 10, chunks: [{ after_ms: 1, text: echo }], end: 'complete' },
        },
      ],
    },
  });
}
