import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allCanaries, countCanaries, makeCanaries, scanFolder } from '@/lib/audit/canaries';
import { driveKeyAudit, type ApiRequest, type ApiResponse, type KeyAuditResult } from '@/lib/audit/key-audit';
import { standInEnv, startStandIns, type StandIns } from '@/lib/audit/vendor-stand-ins';
import { settleLiveRuns, settleLiveSweeps } from '@/lib/testing/api-test-env';
import { dispatch } from '@/scripts/api/dispatch-route';

// The key audit (npm run audit:keys) in-process: canary keys from the environment and from
// requests, runs and a sweep on every vendor through the real route handlers (proxy first, as
// Next calls them) and engine, vendors stood in for by local HTTP servers — which echo the key
// they receive in an error body, or stream it back split, backwards and in pieces.
const TIME_SCALE = 0.01;
const canaries = makeCanaries();
let standIns: StandIns;
let dataDir: string;
let result: KeyAuditResult;
const output: string[] = [];

async function inProcess(request: ApiRequest): Promise<ApiResponse> {
  const response = await dispatch({ ...request, headers: { host: '127.0.0.1:3000', ...request.headers } });
  return {
    status: response.status,
    headers: [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n'),
    body: await response.text(),
  };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-key-audit-'));
  vi.stubEnv('LOOP_LAB_DATA_DIR', dataDir);
  standIns = await startStandIns({ timeScale: TIME_SCALE });
  for (const [name, value] of Object.entries(standInEnv(standIns, canaries))) vi.stubEnv(name, value);
  // Server output: everything written to stdout/stderr or the console while the runs go.
  const capture = (...args: unknown[]) => void output.push(format(...args));
  for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const)
    vi.spyOn(console, method).mockImplementation(capture);
  const write = (chunk: unknown) => (output.push(String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(write);
  vi.spyOn(process.stderr, 'write').mockImplementation(write);
  try {
    result = await driveKeyAudit({ transport: inProcess, standIns, canaries, timeScale: TIME_SCALE });
  } finally {
    vi.restoreAllMocks();
  }
}, 300_000);

afterAll(async () => {
  await settleLiveSweeps();
  await settleLiveRuns();
  await standIns?.close();
  vi.unstubAllEnvs();
  const g = globalThis as unknown as Record<string, { close?(): void } | undefined>;
  for (const name of [
    '__loopLabStore',
    '__loopLabSweepStore',
    '__loopLabPromptSetStore',
    '__loopLabCassetteStore',
    '__loopLabVisitorStore',
    '__loopLabWireStore',
  ])
    g[name]?.close?.();
  for (const name of [
    '__loopLabStore',
    '__loopLabSweepStore',
    '__loopLabPromptSetStore',
    '__loopLabCassetteStore',
    '__loopLabVisitorStore',
    '__loopLabWireStore',
    '__loopLabRunTraffic',
    '__loopLabRunRegistry',
    '__loopLabSweepRegistry',
  ])
    delete g[name];
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('key audit: canary keys after runs on every vendor', () => {
  it('made every run it meant to, and refused the ones it had to', () => {
    expect(result.outcomes.map((o) => [o.name, o.status])).toEqual(
      result.outcomes.map((o) => [o.name, o.expected]),
    );
    const reasons = Object.fromEntries(
      result.outcomes
        .filter(
          (o) =>
            o.status === 201 &&
            !/^(import|prompt set|sweep)/.test(o.name) &&
            !o.name.includes('cassette') &&
            !o.name.endsWith('shared by link'),
        )
        .map((o) => [o.name, o.reason]),
    );
    // Every vendor is audited, the Responses API (on OpenAI's address and key) and its simulator included.
    const responses = result.outcomes.filter(
      (o) =>
        /^(sim-)?openai-responses\b/.test(o.name) &&
        !o.name.endsWith('saved as a cassette') &&
        !o.name.endsWith('shared by link'),
    );
    expect(responses.length).toBe(10);
    // Runs against working stand-ins did real turns; against the echoing one the 401 ended them.
    for (const [name, reason] of Object.entries(reasons)) {
      expect([name, reason]).toEqual([
        name,
        name.includes('echoing') ? 'model_error' : expect.stringMatching(/^(end_turn|max_iterations)$/),
      ]);
    }
  });

  it('sends no environment key to a URL a request chose', () => {
    expect(result.requestChosenRequests).toBeGreaterThan(0);
    expect(standIns.requestChosen.anthropic.keysReceived.every((k) => k === canaries.request)).toBe(true);
    expect(result.envKeysAtRequestChosen).toBe(0);
    // The echoing stand-in did receive both kinds of key, so the echo path was exercised.
    expect(standIns.echo.openai.keysReceived).toEqual(
      expect.arrayContaining([canaries.envOpenai, canaries.request]),
    );
    // So did the one that streams it back split across deltas; a key with CRLF inside reached no vendor.
    expect(standIns.splitEcho.anthropic.keysReceived).toEqual(
      expect.arrayContaining([canaries.envAnthropic, canaries.request]),
    );
    expect(
      standIns.all.flatMap((s) => s.keysReceived).some((k) => k.includes('\n') || k.includes('X-Injected')),
    ).toBe(false);
  });

  it('leaves 0 canaries in the cassettes: every run saved as one and downloaded, and an import quoting the keys', () => {
    expect(result.outcomes.filter((o) => o.name.endsWith('saved as a cassette')).length).toBeGreaterThan(10);
    expect(result.responseText).toContain('"format": "loop-lab-cassette"');
    expect(result.responseText).toContain('Incorrect API key provided: [redacted]');
    // The echoes written backwards and in pieces were there to redact too.
    expect(result.responseText).toContain('backwards [redacted], in pieces [redacted]');
  });

  it('leaves 0 canaries in responses: JSON, SSE and JSONL traces', () => {
    expect(result.responses).toBeGreaterThan(40);
    expect(result.responseText).toContain('[redacted]'); // the echoed keys were there to redact
    expect(result.responseHits).toBe(0);
  });

  it('leaves 0 canaries in the store file bytes', () => {
    const scan = scanFolder({ dir: dataDir, canaries: allCanaries(canaries) });
    expect(scan.bytes).toBeGreaterThan(0);
    expect(scan.hits).toBe(0);
  });

  it('leaves 0 canaries in server output', () => {
    expect(countCanaries(output.join('\n'), allCanaries(canaries))).toBe(0);
  });
});
