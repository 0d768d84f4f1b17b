import { RealClock, createRandom } from '@/lib/clock';
import type { Dialect as AnyDialect } from '@/lib/protocol';

/** The stand-ins serve the two error-body families (the Responses API's are OpenAI's). */
type Dialect = Exclude<AnyDialect, 'responses'>;
import {
  createPolicy,
  createSimAnthropic,
  createSimOpenAI,
  createSimResponses,
  startSimServer,
  type SimServer,
} from '@/lib/sim';
import { getScenario } from '@/lib/tools';
import { anthropicErrorBody, openaiErrorBody } from '@/lib/dialects';
import { splitEcho } from './split-echo';

/** A local HTTP server speaking one vendor's API that writes down every key it was sent. */
export interface StandIn {
  dialect: Dialect;
  /** The base URL an SDK is pointed at (OpenAI's includes /v1). */
  baseUrl: string;
  /** The key of every request received (x-api-key or the Bearer token). */
  keysReceived: string[];
}

export interface StandIns {
  /** Named by the server's environment (ANTHROPIC_BASE_URL / OPENAI_BASE_URL). */
  envNamed: Record<Dialect, StandIn>;
  /** Named by nobody but a run request: the server's own key must never arrive here. */
  requestChosen: Record<Dialect, StandIn>;
  /** Allow-listed, and answers every request 401 with the key it received quoted in the error body (as is, backwards, in pieces). */
  echo: Record<Dialect, StandIn>;
  /** Allow-listed, and answers 200 streaming the key it received split across two deltas, then in hex, backwards and split by line breaks. */
  splitEcho: Record<Dialect, StandIn>;
  all: StandIn[];
  close(): Promise<void>;
}

/** The environment a server under audit runs with: canary keys and the stand-ins' addresses. */
export function standInEnv(
  standIns: StandIns,
  keys: { envAnthropic: string; envOpenai: string },
): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: keys.envAnthropic,
    OPENAI_API_KEY: keys.envOpenai,
    ANTHROPIC_BASE_URL: standIns.envNamed.anthropic.baseUrl,
    OPENAI_BASE_URL: standIns.envNamed.openai.baseUrl,
    LOOP_LAB_ALLOWED_BASE_URLS: [standIns.echo, standIns.splitEcho]
      .flatMap((p) => [p.anthropic.baseUrl, p.openai.baseUrl])
      .join(' '),
    // The request-chosen stand-ins are on 127.0.0.1 too: a run that brings its own key may use them, the server's key never.
    LOOP_LAB_ALLOWED_REQUEST_HOSTS: [standIns.requestChosen.anthropic, standIns.requestChosen.openai]
      .map((s) => new URL(s.baseUrl).host)
      .join(' '),
  };
}

/**
 * Eight stand-ins on 127.0.0.1 (ephemeral ports): the simulated vendors served over real HTTP
 * (lib/sim/http-server.ts), on the real clock at `timeScale`, each recording the keys it gets.
 */
export async function startStandIns(options: { timeScale: number }): Promise<StandIns> {
  const servers: SimServer[] = [];
  const start = async (dialect: Dialect, echo: 'none' | 'error' | 'split'): Promise<StandIn> => {
    const keysReceived: string[] = [];
    const clock = new RealClock(options.timeScale);
    const random = createRandom(11);
    const scenario = getScenario('fix-failing-test')!;
    const simOptions = { clock, random, policy: createPolicy('worker', scenario) };
    const sim = (dialect === 'anthropic' ? createSimAnthropic : createSimOpenAI)(simOptions);
    // OpenAI's address serves both of its APIs, as the real one does: Chat Completions and the Responses API.
    const responses =
      dialect === 'openai'
        ? createSimResponses({ ...simOptions, random: random.fork('responses') })
        : undefined;
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      const key = headers.get('x-api-key') ?? headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? '';
      keysReceived.push(key);
      const api = responses && requestPath(input).endsWith('/responses') ? 'responses' : dialect;
      if (echo === 'error') return echoKey(dialect, key);
      if (echo === 'split') return splitEcho(api, key);
      return api === 'responses' ? responses!(input, init) : sim(input, init);
    }) as typeof globalThis.fetch;
    const server = await startSimServer({ dialect, fetch });
    servers.push(server);
    return { dialect, baseUrl: dialect === 'openai' ? `${server.url}/v1` : server.url, keysReceived };
  };
  const pair = async (echo: 'none' | 'error' | 'split'): Promise<Record<Dialect, StandIn>> => ({
    anthropic: await start('anthropic', echo),
    openai: await start('openai', echo),
  });
  const envNamed = await pair('none');
  const requestChosen = await pair('none');
  const echo = await pair('error');
  const split = await pair('split');
  return {
    envNamed,
    requestChosen,
    echo,
    splitEcho: split,
    all: [envNamed, requestChosen, echo, split].flatMap((p) => [p.anthropic, p.openai]),
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

/**
 * The careless vendor: a 401 whose message quotes the key back, in the vendor's own error shape —
 * as is, written backwards, and split into pieces by `|`.
 */
function echoKey(dialect: Dialect, key: string): Response {
  const mangled = `backwards ${[...key].reverse().join('')}, in pieces ${key.match(/.{1,5}/g)!.join('|')}`;
  const body =
    dialect === 'anthropic'
      ? anthropicErrorBody({
          type: 'authentication_error',
          message: `invalid x-api-key: ${key} (${mangled})`,
        })
      : openaiErrorBody({
          message: `Incorrect API key provided: ${key}. Authorization: Bearer ${key} (${mangled})`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        });
  return new Response(JSON.stringify(body), { status: 401, headers: { 'content-type': 'application/json' } });
}

/** The path a fetch asks for, whatever form its input takes. */
function requestPath(input: RequestInfo | URL): string {
  return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
}
