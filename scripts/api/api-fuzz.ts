import fc from 'fast-check';
import { BASE, dispatch, type FuzzRequest } from './dispatch-route';
import { POST as postRun } from '@/app/api/runs/route';
import {
  controlBodies,
  importBodies,
  junk,
  otlpBodies,
  pathSegments,
  promptSetBodies,
  resumeValues,
  runBodies,
  sweepBodies,
  UNBROWSER_HOSTS,
  UNBROWSER_ORIGINS,
  VALID_CONFIG,
} from './fuzz-bodies';

export { dispatch, type FuzzRequest };
export * from './fuzz-bodies';

/**
 * Property-based API fuzzing over every route handler: random malformed run configs, control
 * messages, JSONL and OTLP imports, prompt sets, sweep grids, lesson slugs, compare queries,
 * SSE resume points, paths and Host headers, dispatched the way Next
 * would (proxy first, then the route, with the path segment decoded). Shared by the vitest
 * properties (api-fuzz.test.ts) and `npm run fuzz`, which counts 5xx answers. The bodies and other
 * values it sends are generated in fuzz-bodies.ts.
 */

/** One fuzzed request of any kind, to any route, aimed at `knownId` (a finished run) some of the time. */
export function fuzzRequests(knownId: string, knownSweepId?: string): fc.Arbitrary<FuzzRequest> {
  const id = fc.oneof(fc.constant(knownId), pathSegments);
  const sweepId = knownSweepId ? fc.oneof(fc.constant(knownSweepId), pathSegments) : pathSegments;
  const query = fc.oneof(fc.string({ maxLength: 12 }), id).map((v) => encodeURIComponent(v));
  const header = (value: string): Record<string, string> => {
    try {
      new Headers({ 'Last-Event-ID': value });
      return { 'Last-Event-ID': value };
    } catch {
      return {}; // not a legal header value: the client could not send it either
    }
  };
  return fc.oneof(
    runBodies.map((body): FuzzRequest => ({ method: 'POST', path: '/api/runs', body })),
    fc
      .tuple(id, controlBodies)
      .map(([i, body]): FuzzRequest => ({ method: 'POST', path: `/api/runs/${i}/control`, body })),
    importBodies.map((body): FuzzRequest => ({
      method: 'POST',
      path: '/api/runs/import',
      body,
      headers: { 'Content-Type': 'application/x-ndjson' },
    })),
    fc
      .tuple(id, resumeValues)
      .map(([i, v]): FuzzRequest => ({ method: 'GET', path: `/api/runs/${i}/events`, headers: header(v) })),
    fc.tuple(id, resumeValues).map(([i, v]): FuzzRequest => ({
      method: 'GET',
      path: `/api/runs/${i}/events?after=${encodeURIComponent(v)}`,
    })),
    fc
      .tuple(
        fc.constantFrom('GET', 'POST') as fc.Arbitrary<'GET' | 'POST'>,
        fc.array(pathSegments, { minLength: 1, maxLength: 4 }),
      )
      .map(([method, segs]): FuzzRequest => ({ method, path: `/api/runs/${segs.join('/')}`, body: '{}' })),
    fc.constantFrom<FuzzRequest>(
      { method: 'GET', path: '/api/runs?limit=abc' },
      { method: 'GET', path: '/api/runs?limit=-1' },
      { method: 'GET', path: '/api/scenarios' },
    ),
    otlpBodies.map((body): FuzzRequest => ({ method: 'POST', path: '/api/runs/import', body })),
    fc
      .tuple(id, fc.constantFrom('', '/forks', '/otel', '/trace', '/swap-targets'))
      .map(([i, leaf]): FuzzRequest => ({ method: 'GET', path: `/api/runs/${i}${leaf}` })),
    // Cassettes: the list, one by id, an import of junk or deep JSON, a run saved as one.
    fc
      .oneof(
        fc.constant(''),
        id.map((i) => `/${i}`),
      )
      .map((leaf): FuzzRequest => ({ method: 'GET', path: `/api/cassettes${leaf}` })),
    fc
      .oneof(
        junk.map((v) => JSON.stringify(v) ?? ''),
        fc.constant('{"cassette":{"version":1,"exchanges":[]}}'),
        fc.constant('['.repeat(5_000)),
      )
      .map((body): FuzzRequest => ({ method: 'POST', path: '/api/cassettes', body })),
    id.map((i): FuzzRequest => ({ method: 'POST', path: `/api/runs/${i}/cassette`, body: '{}' })),
    promptSetBodies.map((body): FuzzRequest => ({ method: 'POST', path: '/api/prompt-sets', body })),
    sweepBodies.map((body): FuzzRequest => ({ method: 'POST', path: '/api/sweeps', body })),
    fc
      .tuple(
        sweepId,
        fc.constantFrom('', '/events', '/runs', '/export', '/export?format=csv', '/export?format=nope'),
      )
      .map(([i, leaf]): FuzzRequest => ({ method: 'GET', path: `/api/sweeps/${i}${leaf}` })),
    fc
      .tuple(
        sweepId,
        fc.oneof(
          junk.map((v) => JSON.stringify(v) ?? ''),
          fc.constant('{}'),
        ),
      )
      .map(([i, body]): FuzzRequest => ({ method: 'POST', path: `/api/sweeps/${i}/cancel`, body })),
    fc
      .tuple(query, query)
      .map(([a, b]): FuzzRequest => ({ method: 'GET', path: `/api/compare?a=${a}&b=${b}` })),
    fc
      .oneof(fc.constantFrom('', '?limit=x', '?limit=-3', '?limit=1e9'))
      .map((q): FuzzRequest => ({ method: 'GET', path: `/api/sweeps${q}` })),
    fc.constantFrom<FuzzRequest>({ method: 'GET', path: '/api/prompt-sets' }),
    fc
      .tuple(
        pathSegments,
        fc.oneof(
          junk.map((v) => JSON.stringify(v) ?? ''),
          fc.constant('{}'),
        ),
      )
      .map(([slug, body]): FuzzRequest => ({ method: 'POST', path: `/api/lessons/${slug}/play`, body })),
    fc
      .tuple(
        fc.constantFrom('GET', 'POST') as fc.Arbitrary<'GET' | 'POST'>,
        fc.constantFrom('/api/runs', '/api/sweeps', '/api/prompt-sets'),
        fc.constantFrom(
          'rebind.evil.example',
          'localhost:3000',
          '127.0.0.1',
          '[::1]:80',
          'a b',
          '',
          ...UNBROWSER_HOSTS,
        ),
      )
      .map(([method, path, host]): FuzzRequest => ({
        method,
        path,
        body: '{}',
        headers: host ? { host } : {},
      })),
    fc
      .tuple(
        fc.constantFrom('GET', 'POST') as fc.Arbitrary<'GET' | 'POST'>,
        fc.constantFrom('/api/runs', '/api/sweeps', '/api/prompt-sets'),
        fc.constantFrom('http://localhost', 'null', 'https://evil.example', ...UNBROWSER_ORIGINS),
      )
      .map(([method, path, origin]): FuzzRequest => ({ method, path, body: '{}', headers: { origin } })),
  );
}

/** Reads a response to the end (an SSE stream of a finished run closes after terminate). */
export async function drain(response: Response): Promise<string> {
  return response.text();
}

/** A valid run, for "the server still answers" and for a known id. */
export async function startValidRun(): Promise<string> {
  const response = await postRun(
    new Request(`${BASE}/api/runs`, {
      method: 'POST',
      body: JSON.stringify({ config: VALID_CONFIG }),
      headers: { 'Content-Type': 'application/json' },
    }),
  );
  if (response.status !== 201)
    throw new Error(`a valid run was refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}
