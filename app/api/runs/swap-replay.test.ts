import { describe, expect, it } from 'vitest';
import { jsonPost, readSseEvents, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { CreatedRunSchema, parseResponse, RunRecordSchema, type RunRecord } from '@/lib/protocol/http';
import type { RunConfig, RunEvent } from '@/lib/protocol';
import { getRunRegistry } from '@/lib/server';
import { compareRuns } from '@/lib/compare/compare-runs';
import { POST as postRun } from './route';
import { GET as getRun } from './[id]/route';
import { GET as getEvents } from './[id]/events/route';

// A swap made by hand is recorded into the run's stored config, so Re-run (the stored config,
// posted again as the run page's button does) makes it again: the whole stack — the run
// registry, the control queue, the swap controller, the SQLite store, the routes.
const BASE = 'http://localhost/api';
useTempDataDir('loop-lab-swap-replay-');
const ctx = (id: string) => routeContext({ id });

async function started(body: unknown): Promise<string> {
  const response = await postRun(jsonPost(`${BASE}/runs`, body));
  expect(response.status).toBe(201);
  return parseResponse(CreatedRunSchema, await response.json(), 'POST /api/runs').id;
}

async function record(id: string): Promise<RunRecord> {
  return parseResponse(
    RunRecordSchema,
    await (await getRun(new Request(`${BASE}/runs/${id}`), ctx(id))).json(),
    'GET /api/runs/{id}',
  );
}

async function streamed(id: string): Promise<RunEvent[]> {
  return readSseEvents<RunEvent>(await getEvents(new Request(`${BASE}/runs/${id}/events`), ctx(id)));
}

/**
 * An event as a comparison of two runs sees it: without its run id and time (a re-run's own),
 * run_start without its config (the re-run's holds the recorded swap), and a swap without why
 * it happened (by hand in the first run, from the config in the re-run).
 */
function comparable(event: RunEvent): unknown {
  const { run_id: _id, ts: _ts, ...rest } = event;
  if (rest.event === 'run_start') return { ...rest, config: undefined };
  if (rest.event === 'swap') return { ...rest, cause: undefined, reason: undefined, recorded_as: undefined };
  return rest;
}

describe('a swap made by hand replays', () => {
  it('is recorded into the stored config, and Re-run of that config makes the same swaps with the same events (virtual clock)', async () => {
    const config = {
      provider: { vendor: 'sim-anthropic' },
      scenario: 'fix-failing-test',
      clock: 'virtual',
      seed: 11,
    } as const;
    const id = await started({ config });
    // The swap is asked for when the first model call reaches a watcher (an event is sent once the
    // store holds it, so on this instant virtual-clock run that is a few turns in), as a click would,
    // through the registry the control route calls; the turn it lands on is read from its event.
    let asked = false;
    const unsubscribe = await getRunRegistry().subscribe({
      runId: id,
      listener: {
        onEvent: (event) => {
          if (asked || event.event !== 'llm_call') return;
          asked = true;
          void getRunRegistry().control({
            runId: id,
            message: { action: 'swap', target: { vendor: 'sim-deepseek', model: '' } },
          });
        },
        onEnd: () => {},
      },
    });
    const first = await streamed(id);
    unsubscribe();
    expect(asked).toBe(true);

    const swaps = first.filter((e) => e.event === 'swap');
    const atTurn = swaps[0]?.event === 'swap' ? swaps[0].iteration : -1;
    expect(atTurn).toBeGreaterThan(1);
    expect(swaps).toEqual([
      expect.objectContaining({
        cause: 'control',
        iteration: atTurn,
        to_vendor: 'sim-deepseek',
        recorded_as: expect.objectContaining({ atTurn, vendor: 'sim-deepseek' }),
      }),
    ]);
    const stored = (await record(id)).config;
    expect(stored.swaps).toEqual([
      { atTurn, vendor: 'sim-deepseek', model: '', takeover: { foreignThinking: 'drop', naive: false } },
    ]);

    // Re-run: the stored config as it is, the same seed.
    const again = await started({ config: stored satisfies RunConfig });
    const second = await streamed(again);
    expect(second.filter((e) => e.event === 'swap')).toEqual([
      expect.objectContaining({
        cause: 'scheduled',
        iteration: atTurn,
        to_vendor: 'sim-deepseek',
        to_model: 'deepseek-sim-reasoner',
      }),
    ]);
    expect(second.at(-1)).toMatchObject({ event: 'terminate', complete: true });
    expect(second.map(comparable)).toEqual(first.map(comparable));
    // The comparison page agrees: no step differs.
    expect(compareRuns({ id, events: first }, { id: again, events: second }).divergence).toBeNull();
    // The re-run's config already holds the swap; its scheduled swap is not recorded a second time.
    expect((await record(again)).config.swaps).toEqual(stored.swaps);
  });
});
