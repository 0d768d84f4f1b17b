import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '@/lib/protocol/http';
import { api, ApiError } from './client';

// The browser edge: a response that drifted from its schema is an ApiError naming the endpoint
// and the field, and an error body's message and details reach the UI as the server wrote them.
const answer = (status: number, body: unknown) => vi.fn(async () => Response.json(body, { status }));

afterEach(() => vi.unstubAllGlobals());

const sampleRunSummary: RunSummary = {
  id: 'run_sample',
  created_at: '2026-11-30T20:00:00.000Z',
  status: 'completed',
  reason: 'end_turn',
  complete: true,
  verdict: 'done',
  vendor: 'sim-anthropic',
  model: 'claude-sim-sonnet',
  vendors: [{ vendor: 'sim-anthropic', model: 'claude-sim-sonnet' }],
  scenario: 'fix-failing-test',
  title: 'Fix the failing slugify test',
  preset: 'codesmith',
  overrides: [],
  seed: 1,
  faults: [],
  prompt_set: null,
  iterations: 4,
  input_tokens: 5210,
  output_tokens: 640,
  usd: 0.0252,
  duration_ms: 9120,
  event_count: 48,
  imported: false,
};

describe('api client', () => {
  it("sends the browser to /room on a room's 401, back to where it was once joined; not for the join itself", async () => {
    const assign = vi.fn();
    vi.stubGlobal('window', { location: { pathname: '/runs/abc', search: '?tab=trace', assign } });
    vi.stubGlobal('fetch', answer(401, { error: 'This Loop Lab is a room: join it first' }));
    await expect(api.listRuns()).rejects.toMatchObject({ status: 401 });
    expect(assign).toHaveBeenCalledWith(`/room?next=${encodeURIComponent('/runs/abc?tab=trace')}`);
    assign.mockClear();
    vi.stubGlobal('fetch', answer(401, { error: 'That is not the room code' }));
    await expect(api.joinRoom('nope')).rejects.toThrow('That is not the room code');
    expect(assign).not.toHaveBeenCalled();
  });

  it('returns a run list that matches the schema', async () => {
    vi.stubGlobal('fetch', answer(200, [sampleRunSummary]));
    expect(await api.listRuns()).toEqual([sampleRunSummary]);
  });

  it('names the endpoint and the field when a response drifted from its schema', async () => {
    const { status: _dropped, ...rest } = sampleRunSummary;
    vi.stubGlobal('fetch', answer(200, [{ ...rest, state: 'completed' }]));
    const error = await api.listRuns().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toMatch(/^GET \/api\/runs answered in an unexpected shape: /);
    expect((error as ApiError).details).toEqual(
      expect.arrayContaining([expect.stringMatching(/^0\.status: /), expect.stringMatching(/^0: .*state/)]),
    );
  });

  it('passes a 4xx error body through as the message and its details', async () => {
    vi.stubGlobal(
      'fetch',
      answer(400, { error: 'The request is invalid', details: ['config.seed: too small'] }),
    );
    const error = (await api
      .createRun({ provider: { vendor: 'sim-anthropic' } })
      .catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.message, error.details]).toEqual([
      400,
      'The request is invalid',
      ['config.seed: too small'],
    ]);
  });

  it('names the endpoint when an error response has no error body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    const error = (await api.control('r1', { action: 'abort' }).catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.message]).toEqual([502, 'POST /api/runs/r1/control: 502 Bad Gateway']);
  });

  it("reads a finished run's folded view with the events it names, and names an entry that is no stored event", async () => {
    const terminate = { run_id: 'r', seq: 0, ts: 0, event: 'terminate', reason: 'end_turn', complete: true };
    const view = { turns: [], lastSeq: 0, terminate: { seq: 0, reason: 'end_turn', complete: true } };
    vi.stubGlobal('fetch', answer(200, { finished: true, view, named: [terminate] }));
    expect(await api.finishedView('r')).toEqual({ finished: true, view, named: [terminate] });
    vi.stubGlobal('fetch', answer(200, { finished: false }));
    expect(await api.finishedView('r')).toEqual({ finished: false });
    vi.stubGlobal('fetch', answer(200, { finished: true, view, named: [{ seq: 0 }] }));
    await expect(api.finishedView('r')).rejects.toThrow(
      /GET \/api\/runs\/r\/view .*named\.0: not a stored event/,
    );
  });
});
