import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_TOTALS } from '@/lib/protocol';
import { encodeLog } from './encoded-log';
import { createSqliteRunStore } from './sqlite-run-store';
import type { RunStore } from './run-store';
import { batchOf, sampleConfig, sampleRunEvents } from './sample-run.testkit';

let dir: string;
let store: RunStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-encoded-'));
  store = createSqliteRunStore({ dir });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a log encoded where the run was made', () => {
  it('is stored exactly as the same events would be: the same log and the same summary row', async () => {
    await store.createRun({
      id: 'a',
      config: sampleConfig(),
      createdAt: 1,
      ...batchOf(sampleRunEvents({ runId: 'a' })),
    });
    // Through a clone, as it crosses from a worker thread.
    const { events, totals } = batchOf(sampleRunEvents({ runId: 'b' }));
    await store.createRun({
      id: 'b',
      config: sampleConfig(),
      createdAt: 1,
      log: structuredClone(encodeLog('b', events, totals)),
    });
    expect(await store.readEvents({ runId: 'b' })).toEqual(sampleRunEvents({ runId: 'b' }));
    const { id: _a, ...a } = (await store.getRun('a'))!.summary;
    const { id: _b, ...b } = (await store.getRun('b'))!.summary;
    expect(b).toEqual(a);
    expect(b).toMatchObject({ status: 'completed', event_count: sampleRunEvents({ runId: 'b' }).length });
  });

  it('is refused, with the store’s own words, when the events are not one run’s contiguous log', () => {
    const events = sampleRunEvents({ runId: 'r' });
    expect(() =>
      encodeLog(
        'r',
        events.filter((e) => e.seq !== 3),
        NO_TOTALS,
      ),
    ).toThrow(/run r: seq 4 breaks the contiguous batch at index 3/);
    expect(() => encodeLog('other', events, NO_TOTALS)).toThrow(/event seq 0 belongs to run r, not other/);
  });

  it('stores nothing of a run whose encoded log is not whole', async () => {
    const { events, totals } = batchOf(sampleRunEvents({ runId: 'r' }));
    const log = encodeLog('r', events, totals);
    log.types.pop();
    await expect(store.createRun({ id: 'r', config: sampleConfig(), log })).rejects.toThrow(/not whole/);
    expect(await store.getRun('r')).toBeUndefined();
    await expect(
      store.createRun({
        id: 'r',
        config: sampleConfig(),
        events,
        totals,
        log: encodeLog('r', events, totals),
      }),
    ).rejects.toThrow(/not both/);
  });

  it('must start the log at seq 0 when it creates the run', async () => {
    const { events, totals } = batchOf(sampleRunEvents({ runId: 'r' }), 2);
    const log = encodeLog('r', events, totals);
    await expect(store.createRun({ id: 'r', config: sampleConfig(), log })).rejects.toThrow(
      /continue the log at seq 0, got seq 2/,
    );
    expect(await store.getRun('r')).toBeUndefined();
  });
});
