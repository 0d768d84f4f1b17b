import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareRuns } from '@/lib/compare/compare-runs';
import { RunConfigSchema, type RunConfigInput, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, EVENT_PAGE, type RunStore } from '@/lib/store';
import { batchOf } from '@/lib/store/sample-run.testkit';
import { createComparisonCache } from './comparison-cache';

vi.mock('server-only', () => ({}));

const dirs: string[] = [];
function tempStore(): RunStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-compare-cache-'));
  dirs.push(dir);
  return createSqliteRunStore({ dir });
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function recordedRun(runId: string, input: Partial<RunConfigInput>): Promise<RunEvent[]> {
  const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual', ...input });
  const events: RunEvent[] = [];
  await launchRun({ runId, config, onEvent: (e) => events.push(e) }).done;
  return events;
}

async function storeRun(store: RunStore, id: string, log: RunEvent[], upTo = log.length): Promise<void> {
  const { events, totals } = batchOf(log, 0, upTo);
  await store.createRun({
    id,
    config: (log[0] as Extract<RunEvent, { event: 'run_start' }>).config,
    events: events.map((e) => ({ ...e, run_id: id })),
    totals,
  });
}

describe("the compare route's comparison cache", () => {
  it('answers exactly what compareRuns over both whole logs does as a live side grows, reading only its new events and never re-reading a finished side', async () => {
    const store = tempStore();
    const log = await recordedRun('x', { seed: 4 });
    const other = await recordedRun('y', {
      seed: 4,
      recovery: { retry: { enabled: false } },
      faults: {
        rules: [
          {
            id: 'o',
            enabled: true,
            when: { kind: 'requests', numbers: [2] },
            action: { type: 'http_error', status: 529 },
          },
        ],
        tools: [],
      },
    });
    expect(log.length).toBeGreaterThan(40);
    await storeRun(store, 'live', log, 10);
    await storeRun(store, 'done', other);
    const reads = vi.spyOn(store, 'readEventBodies');
    const cache = createComparisonCache({ store });
    const whole = async () =>
      compareRuns(
        { id: 'live', events: await store.readEvents({ runId: 'live' }) },
        { id: 'done', events: await store.readEvents({ runId: 'done' }) },
      );

    expect(await cache.compare('live', 'done')).toEqual(await whole());
    for (let at = 10; at < log.length; at += 17) {
      const { events, totals } = batchOf(log, at, at + 17);
      await store.appendEvents({
        runId: 'live',
        events: events.map((e) => ({ ...e, run_id: 'live' })),
        totals,
      });
      reads.mockClear();
      const answer = await cache.compare('live', 'done');
      expect(reads.mock.calls).toEqual([[{ runId: 'live', afterSeq: at - 1, limit: EVENT_PAGE }]]);
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await whole()));
    }
    expect((await cache.compare('live', 'done')).a.running).toBe(false);
    reads.mockClear();
    await cache.compare('live', 'done');
    expect(reads).not.toHaveBeenCalled();
  });

  it('holds, beside the folds, only the steps a live side has not caught up with, none once both ended, and at most `max` pairs', async () => {
    const store = tempStore();
    const log = await recordedRun('x', { seed: 5 });
    await storeRun(store, 'done', log);
    await storeRun(store, 'live', log, 30);
    const cache = createComparisonCache({ store, max: 2 });
    await cache.compare('live', 'done');
    // Same config and seed: the finished side's steps past where the live one has got wait for it.
    const lead = cache.held().steps;
    expect(lead).toBeGreaterThan(10);
    const { events, totals } = batchOf(log, 30);
    await store.appendEvents({
      runId: 'live',
      events: events.map((e) => ({ ...e, run_id: 'live' })),
      totals,
    });
    expect((await cache.compare('live', 'done')).divergence).toBeNull();
    expect(cache.held()).toEqual({ pairs: 1, steps: 0 });

    const reads = vi.spyOn(store, 'readEventBodies');
    await cache.compare('done', 'live');
    await cache.compare('live', 'done');
    await cache.compare('done', 'done'); // drops done/live, the least recently asked
    expect(cache.held().pairs).toBe(2);
    reads.mockClear();
    await cache.compare('live', 'done');
    await cache.compare('done', 'live');
    expect(reads.mock.calls).toEqual([
      [{ runId: 'done', afterSeq: -1, limit: EVENT_PAGE }],
      [{ runId: 'live', afterSeq: -1, limit: EVENT_PAGE }],
    ]);
  });
});
