import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, type RunStore } from '@/lib/store';
import { createRunLogCache } from './run-log-cache';

vi.mock('server-only', () => ({}));

const dirs: string[] = [];
function tempStore(): RunStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-log-cache-'));
  dirs.push(dir);
  return createSqliteRunStore({ dir });
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function recordedRun(runId: string, seed: number): Promise<RunEvent[]> {
  const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed });
  const events: RunEvent[] = [];
  await launchRun({ runId, config, onEvent: (e) => events.push(e) }).done;
  return events;
}

describe('the compare route\'s log cache', () => {
  it('returns exactly what the store holds as a live log grows, reading only the new events, and never re-reads a finished log', async () => {
    const store = tempStore();
    const log = await recordedRun('live', 4);
    expect(log.length).toBeGreaterThan(40);
    store.createRun({ id: 'live', config: (log[0] as Extract<RunEvent, { event: 'run_start' }>).config, events: log.slice(0, 10) });
    const reads = vi.spyOn(store, 'readEvents');
    const cache = createRunLogCache({ store });

    expect(cache.read('live')).toEqual(store.readEvents({ runId: 'live' }));
    for (let at = 10; at < log.length; at += 17) {
      store.appendEvents({ runId: 'live', events: log.slice(at, at + 17) });
      reads.mockClear();
      const held = cache.read('live');
      expect(reads.mock.calls).toEqual([[{ runId: 'live', afterSeq: at - 1 }]]);
      expect(held).toEqual(store.readEvents({ runId: 'live' }));
    }
    expect(cache.read('live')).toEqual(log);
    reads.mockClear();
    cache.read('live');
    cache.read('live');
    expect(reads).not.toHaveBeenCalled();
  });

  it('drops the least recently read log past its size', async () => {
    const store = tempStore();
    const log = await recordedRun('x', 5);
    const config = (log[0] as Extract<RunEvent, { event: 'run_start' }>).config;
    for (const id of ['a', 'b', 'c']) store.createRun({ id, config, events: log.map((e) => ({ ...e, run_id: id })) });
    const cache = createRunLogCache({ store, max: 2 });
    const reads = vi.spyOn(store, 'readEvents');
    cache.read('a');
    cache.read('b');
    cache.read('a');
    cache.read('c'); // drops b, the least recently read
    reads.mockClear();
    cache.read('a');
    cache.read('b');
    expect(reads.mock.calls).toEqual([[{ runId: 'b' }]]);
  });
});
