import { describe, expect, it } from 'vitest';
import { jsonPost, readSseEvents, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import type { RunEvent } from '@/lib/protocol';
import { ForkListSchema } from '@/lib/protocol/http';
import { foldRawEvents } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { POST as postRun } from './route';
import { GET as getEvents } from './[id]/events/route';
import { GET as getForks } from './[id]/forks/route';

// POST /api/runs with a `fork` field, against the real engine on simulated vendors.
const BASE = 'http://localhost/api';
useTempDataDir('loop-lab-fork-');

const ctx = (id: string) => routeContext({ id });
const post = (body: unknown) => postRun(jsonPost(`${BASE}/runs`, body));

async function streamed(id: string): Promise<RunEvent[]> {
  const response = await getEvents(new Request(`${BASE}/runs/${id}/events`), ctx(id));
  return readSseEvents<RunEvent>(response);
}

async function started(body: unknown): Promise<string> {
  const response = await post(body);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('POST /api/runs { fork }', () => {
  it('forks a stored run onto another vendor: linked both ways, a takeover on its first request, a terminate', async () => {
    const parentId = await started({
      config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed: 3 },
    });
    await streamed(parentId);
    const childId = await started({ fork: { runId: parentId, atTurn: 2, provider: 'sim-openai' } });
    const child = await streamed(childId);
    expect(child.find((e) => e.event === 'forked_from')).toMatchObject({ parent_run_id: parentId, turn: 2 });
    expect(child.find((e) => e.event === 'swap')).toMatchObject({ cause: 'fork', to_vendor: 'sim-openai' });
    expect(child.some((e) => e.event === 'takeover_report')).toBe(true);
    expect(child.at(-1)).toMatchObject({ event: 'terminate' });
    // The run header's counts: the requests copied from the parent's turns 1–2, and the child's own
    // (what its attempt budget counts), folded by the browser's reducer from the real log.
    const view = foldRawEvents(initialRunViewState(), child);
    const parentRequests = (await streamed(parentId)).filter(
      (e) => e.event === 'model_request' && e.iteration <= 2,
    ).length;
    const ownRequests = child.filter((e) => e.event === 'model_request').length - parentRequests;
    expect(ownRequests).toBeGreaterThan(0);
    expect([view.copiedRequests, view.requests]).toEqual([parentRequests, ownRequests]);
    const forks = ForkListSchema.parse(
      await (await getForks(new Request(`${BASE}/runs/${parentId}/forks`), ctx(parentId))).json(),
    );
    expect(forks).toMatchObject([{ id: childId, forked_at_turn: 2 }]);
    // A fork of a fork is listed on its own parent only.
    const grandchild = await started({ fork: { runId: childId, atTurn: 3 } });
    await streamed(grandchild);
    expect(
      (
        (await (
          await getForks(new Request(`${BASE}/runs/${childId}/forks`), ctx(childId))
        ).json()) as unknown[]
      ).length,
    ).toBe(1);
    expect(
      (
        (await (
          await getForks(new Request(`${BASE}/runs/${parentId}/forks`), ctx(parentId))
        ).json()) as unknown[]
      ).length,
    ).toBe(1);
  });

  it('bad fork bodies are 4xx naming the field and what to fix', async () => {
    const parentId = await started({ config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual' } });
    await streamed(parentId);
    const details = async (body: unknown, status = 400): Promise<string[]> => {
      const response = await post(body);
      expect(response.status).toBe(status);
      return ((await response.json()) as { details: string[] }).details;
    };
    expect(await details({ fork: { runId: 'nope', atTurn: 1 } }, 404)).toEqual([
      expect.stringMatching(/^fork\.runId: no run with id "nope"/),
    ]);
    expect(await details({ fork: { runId: parentId, atTurn: 99 } })).toEqual([
      expect.stringMatching(/^fork\.atTurn: turn 99 is out of range: the run has turns 1 to \d+$/),
    ]);
    expect(await details({ fork: { runId: parentId, atTurn: 0 } })).toEqual([
      expect.stringMatching(/^fork\.atTurn: turns count from 1/),
    ]);
    expect(await details({ fork: { runId: parentId, atTurn: 1, provider: 'acme' } })).toEqual([
      expect.stringMatching(/^fork\.provider: /),
    ]);
    expect(
      await details({
        fork: { runId: parentId, atTurn: 1, provider: 'sim-openai', model: 'claude-sim-sonnet' },
      }),
    ).toEqual([
      expect.stringMatching(
        /^fork\.model: the simulated vendor sim-openai serves .*"claude-sim-sonnet" is not one of them/,
      ),
    ]);
    expect(
      await details({ fork: { runId: parentId, atTurn: 1 }, config: { provider: { vendor: 'sim-openai' } } }),
    ).toEqual([expect.stringMatching(/^fork: send either a config/)]);
    expect(await details({})).toEqual([
      expect.stringMatching(/^config: required: the run config, or a fork/),
    ]);
  });

  it('a fork with edits: the edited tool result is logged before and after; bad edits name their field', async () => {
    const parentId = await started({
      config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed: 7 },
    });
    const parent = await streamed(parentId);
    const call = parent.find((e) => e.event === 'tool_call' && e.iteration === 3);
    if (call?.event !== 'tool_call' || !call.call_id) throw new Error('no tool call at turn 3');
    const edits = [{ kind: 'tool_result', callId: call.call_id, content: 'edited over HTTP' }];
    const childId = await started({ fork: { runId: parentId, atTurn: 3, edits, by: 'playground' } });
    const child = await streamed(childId);
    expect(child.find((e) => e.event === 'fork_edit')).toMatchObject({
      target: { kind: 'tool_result', call_id: call.call_id, turn: 3 },
      before: call.result,
      after: 'edited over HTTP',
      by: 'playground',
    });
    expect(child.at(-1)).toMatchObject({ event: 'terminate' });

    const details = async (fork: unknown): Promise<string[]> => {
      const response = await post({ fork });
      expect(response.status).toBe(400);
      return ((await response.json()) as { details: string[] }).details;
    };
    const at = { runId: parentId, atTurn: 3 };
    expect(await details({ ...at, edits: [{ kind: 'tool_result', callId: 'gone', content: 'x' }] })).toEqual([
      expect.stringMatching(
        /^fork\.edits\.0\.callId: no tool result for call "gone" up to this turn; the calls with results are /,
      ),
    ]);
    expect(await details({ ...at, edits: [{ kind: 'params', maxOutputTokens: 2 }] })).toEqual([
      expect.stringMatching(/^fork\.edits\.0\.maxOutputTokens: /),
    ]);
    expect(await details({ ...at, edits: [{ kind: 'temperature', value: 0.2 }] })).toEqual([
      expect.stringMatching(/^fork\.edits\.0\.kind: kind must be "tool_result", "message" or "params"/),
    ]);
    expect(await details({ ...at, edits: [], by: 'timeout' })).toEqual([
      expect.stringMatching(/^fork\.by: /),
    ]);
  });
});
