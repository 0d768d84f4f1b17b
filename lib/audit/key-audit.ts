import { allCanaries, countCanaries, type Canaries } from './canaries';
import {
  keyAuditCases,
  keyEchoSweep,
  keyNamedRequests,
  keyNamedTrace,
  keyQuotingCassette,
  keyQuotingPromptSet,
  type KeyAuditCase,
} from './key-audit-cases';
import type { StandIns } from './vendor-stand-ins';

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

interface AuditOptions {
  transport: ApiTransport;
  standIns: StandIns;
  canaries: Canaries;
  timeScale: number;
  /** Headers a same-origin page of the app sends (Origin and Sec-Fetch-Site for real HTTP). */
  ownHeaders?: Record<string, string>;
}

/** One audit under way: every call keeps its response's headers and body, every check its outcome. */
interface Audit {
  call: (request: ApiRequest) => Promise<ApiResponse>;
  outcomes: KeyAuditOutcome[];
  ownHeaders: Record<string, string> | undefined;
}

/**
 * Makes every case's request, follows each run to its end (SSE), reads its summary and its
 * trace, lists the runs, and counts canaries in everything that came back.
 */
export async function driveKeyAudit(options: AuditOptions): Promise<KeyAuditResult> {
  const { transport, standIns, canaries } = options;
  const texts: string[] = [];
  const call = async (request: ApiRequest): Promise<ApiResponse> => {
    const response = await transport(request);
    texts.push(response.headers, response.body);
    return response;
  };
  const audit: Audit = { call, outcomes: [], ownHeaders: options.ownHeaders };
  for (const item of keyAuditCases(options)) await driveCase(audit, item);
  await importsQuotingKeys(audit, canaries);
  // Errors that would quote a key sent where a name belongs: a 400 each.
  for (const { name, body } of keyNamedRequests(canaries)) {
    const refused = await call({
      method: 'POST',
      path: '/api/runs',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...audit.ownHeaders },
    });
    audit.outcomes.push({ name, status: refused.status, expected: 400 });
  }
  await sweepEchoingKey(audit, options);
  await call({ method: 'GET', path: '/api/runs' });

  const responseText = texts.join('\n');
  const chosen = [standIns.requestChosen.anthropic, standIns.requestChosen.openai].flatMap(
    (s) => s.keysReceived,
  );
  return {
    outcomes: audit.outcomes,
    responseText,
    responses: texts.length / 2,
    responseHits: countCanaries(responseText, allCanaries(canaries)),
    requestChosenRequests: chosen.length,
    envKeysAtRequestChosen: chosen.filter(
      (k) => k.includes(canaries.envAnthropic) || k.includes(canaries.envOpenai),
    ).length,
  };
}

/** One case's run: started, followed to its end, every view of it read (a share link's too), saved as a cassette and downloaded. */
async function driveCase({ call, outcomes, ownHeaders }: Audit, item: KeyAuditCase): Promise<void> {
  const created = await call({
    method: 'POST',
    path: '/api/runs',
    body: JSON.stringify(item.body),
    headers: { 'content-type': 'application/json', ...ownHeaders, ...item.headers },
  });
  const outcome: KeyAuditOutcome = { name: item.name, status: created.status, expected: item.expect };
  outcomes.push(outcome);
  if (created.status !== 201) return;
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
  // What a read-only share link of it shows, to anyone with the link.
  const shared = await call({
    method: 'POST',
    path: `/api/runs/${id}/share`,
    body: '{}',
    headers: { 'content-type': 'application/json', ...ownHeaders },
  });
  outcomes.push({ name: `${item.name}: shared by link`, status: shared.status, expected: 201 });
  if (shared.status === 201) {
    const { token } = JSON.parse(shared.body) as { token: string };
    for (const leaf of ['', '/view', '/events'])
      await call({ method: 'GET', path: `/api/shared/${token}${leaf}` });
  }
  // The run's traffic as a cassette (requests as sent, responses as received — an echoed key included), then the file itself.
  const saved = await call({
    method: 'POST',
    path: `/api/runs/${id}/cassette`,
    body: '{}',
    headers: { 'content-type': 'application/json', ...ownHeaders },
  });
  outcomes.push({ name: `${item.name}: saved as a cassette`, status: saved.status, expected: 201 });
  if (saved.status === 201)
    await call({ method: 'GET', path: `/api/cassettes/${(JSON.parse(saved.body) as { id: string }).id}` });
}

/** A trace, a cassette and a prompt set written elsewhere that quote the server's keys: imported, then read back. */
async function importsQuotingKeys({ call, outcomes, ownHeaders }: Audit, canaries: Canaries): Promise<void> {
  // A trace written elsewhere, quoting the server's keys as property names and values.
  const imported = await call({
    method: 'POST',
    path: '/api/runs/import',
    body: keyNamedTrace(canaries),
    headers: { 'content-type': 'application/x-ndjson', ...ownHeaders },
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
    headers: { 'content-type': 'application/json', ...ownHeaders },
  });
  outcomes.push({ name: 'cassette import quoting the env keys', status: cassette.status, expected: 201 });
  if (cassette.status === 201)
    await call({ method: 'GET', path: `/api/cassettes/${(JSON.parse(cassette.body) as { id: string }).id}` });
  await call({ method: 'GET', path: '/api/cassettes' });

  // A prompt set quoting every key, as is, backwards and split: stored and listed.
  const promptSet = await call({
    method: 'POST',
    path: '/api/prompt-sets',
    body: keyQuotingPromptSet(canaries),
    headers: { 'content-type': 'application/json', ...ownHeaders },
  });
  outcomes.push({
    name: 'prompt set quoting the env and request keys',
    status: promptSet.status,
    expected: 201,
  });
  await call({ method: 'GET', path: '/api/prompt-sets' });
}

/**
 * A sweep with a key sent beside it, on an endpoint that streams the key back (backwards and split
 * too): run to its end, then every view of it and of its runs read.
 */
async function sweepEchoingKey({ call, outcomes, ownHeaders }: Audit, options: AuditOptions): Promise<void> {
  const { transport } = options;
  const sweep = await call({
    method: 'POST',
    path: '/api/sweeps',
    body: keyEchoSweep(options),
    headers: { 'content-type': 'application/json', ...ownHeaders },
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
