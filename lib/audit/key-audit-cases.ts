import { dialectOf, vendorRow, vendorRows, type Vendor } from '@/lib/protocol';
import { allCanaries, type Canaries } from './canaries';
import type { StandIn, StandIns } from './vendor-stand-ins';

/**
 * The key audit's case tables: the runs it starts and what each must answer, and the bodies it
 * posts that quote the keys (a trace, a cassette, a prompt set, a sweep, property names). The
 * runner (lib/audit/key-audit.ts) sends them and counts what comes back.
 */

export interface KeyAuditCase {
  name: string;
  body: { config: Record<string, unknown>; apiKey?: string };
  /** Extra request headers (a cross-site Origin). */
  headers?: Record<string, string>;
  expect: 201 | 400 | 403;
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

/** Run requests that would quote a key sent where a name belongs: each must be refused with a 400. */
export function keyNamedRequests(canaries: Canaries): { name: string; body: Record<string, unknown> }[] {
  const config = { provider: { vendor: 'sim-openai' }, clock: 'virtual' };
  return [
    { name: '400 for an env key sent as a property name', body: { config, [canaries.envAnthropic]: 1 } },
    {
      name: '400 for a request key sent as a property name',
      body: { config, apiKey: canaries.request, [canaries.request]: 1 },
    },
    {
      name: '400 for an env key written backwards as a config property',
      body: { config: { ...config, [reverse(canaries.envOpenai)]: 1 } },
    },
  ];
}

/** A prompt set quoting every key, as is, backwards and split. */
export function keyQuotingPromptSet(canaries: Canaries): string {
  return JSON.stringify({
    name: 'quoting the keys',
    system: `Keys: ${allCanaries(canaries).flatMap(mangled).join(' ; ')}`,
    task: `Use ${mangled(canaries.request).join(' or ')}`,
    toolDescriptions: { read_file: `Reads a file. ${mangled(canaries.envOpenai)[2]}` },
  });
}

/** A sweep with a key sent beside it (and split in its name), on an endpoint that streams the key back. */
export function keyEchoSweep(options: { standIns: StandIns; canaries: Canaries; timeScale: number }): string {
  const { standIns, canaries } = options;
  return JSON.stringify({
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
  });
}

/** A key as a person or an upstream might mangle it: written backwards, split by `|`, split every few characters by ` | `, by line breaks. */
function mangled(key: string): string[] {
  const every = (n: number, sep: string) => key.match(new RegExp(`.{1,${n}}`, 'g'))!.join(sep);
  return [reverse(key), `${key.slice(0, 20)}|${key.slice(20)}`, every(5, ' | '), reverse(every(7, '\n'))];
}

function reverse(text: string): string {
  return [...text].reverse().join('');
}

/** A plain tracer's trace whose tool arguments use the environment's keys as property names (and values). */
export function keyNamedTrace(canaries: Canaries): string {
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
export function keyQuotingCassette(canaries: Canaries): string {
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
