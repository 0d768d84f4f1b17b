import { describe, expect, it } from 'vitest';
import { encodeLog } from '../encoded-log';
import { batchOf, sampleConfig, sampleRunEvents } from '../sample-run.testkit';
import { attempt, type StoreBackend } from './store-backends.testkit';

/** The run store's contract, its log: what every backend does the same when a run's events are appended, stored and read back. */
export function runLogContract(backend: () => StoreBackend): void {
  const open = async () => (await backend().open()).runs;

  describe('run store: the log', () => {
    it('appends events and reads them back from a seq', async () => {
      const store = await open();
      const events = sampleRunEvents({ runId: 'r1' });
      await store.createRun({ id: 'r1', config: sampleConfig(), createdAt: 1000 });
      await store.appendEvents({ runId: 'r1', ...batchOf(events, 0, 3) });
      await store.appendEvents({ runId: 'r1', ...batchOf(events, 3) });
      expect(await store.readEvents({ runId: 'r1' })).toEqual(events);
      expect((await store.readEvents({ runId: 'r1', afterSeq: 4 })).map((e) => e.seq)).toEqual([5, 6]);
      expect(await store.readEvents({ runId: 'r1', afterSeq: 6 })).toEqual([]);
      expect(await store.readEventBodies({ runId: 'r1', afterSeq: 1, limit: 2 })).toEqual(
        events.slice(2, 4).map((e) => ({ seq: e.seq, body: JSON.stringify(e) })),
      );
      expect((await store.readEventBodiesAt({ runId: 'r1', seqs: [5, 0, 42] })).map((r) => r.seq)).toEqual([
        0, 5,
      ]);
      expect(await store.readEventBodiesAt({ runId: 'r1', seqs: [] })).toEqual([]);
    });

    it('refuses a batch that would leave a gap or repeat a seq, and changes nothing', async () => {
      const store = await open();
      const events = sampleRunEvents({ runId: 'r1' });
      await store.createRun({ id: 'r1', config: sampleConfig() });
      await store.appendEvents({ runId: 'r1', ...batchOf(events, 0, 2) });
      await expect(
        attempt(() => store.appendEvents({ runId: 'r1', ...batchOf(events, 3, 4) })),
      ).rejects.toThrow(/continue the log at seq 2/);
      await expect(
        attempt(() => store.appendEvents({ runId: 'r1', ...batchOf(events, 1, 3) })),
      ).rejects.toThrow(/seq 2, got seq 1/);
      await expect(
        attempt(() => store.appendEvents({ runId: 'nope', ...batchOf(events, 0, 1) })),
      ).rejects.toThrow(/does not exist/);
      expect((await store.getRun('r1'))?.summary.event_count).toBe(2);
      expect(await store.readEvents({ runId: 'r1' })).toEqual(events.slice(0, 2));
    });

    it('stores several runs’ batches in one transaction: all, or none when one fails', async () => {
      const store = await open();
      const a = sampleRunEvents({ runId: 'a' });
      const b = sampleRunEvents({ runId: 'b' });
      await store.createRun({ id: 'a', config: sampleConfig() });
      await store.createRun({ id: 'b', config: sampleConfig() });
      await store.appendEventBatches([
        { runId: 'a', ...batchOf(a, 0, 3) },
        { runId: 'b', ...batchOf(b, 0, 2) },
      ]);
      await expect(
        attempt(() =>
          store.appendEventBatches([
            { runId: 'a', ...batchOf(a, 3) },
            { runId: 'b', ...batchOf(b, 3) }, // b's log is at seq 2: refused, and a's batch with it
          ]),
        ),
      ).rejects.toThrow(/continue the log at seq 2, got seq 3/);
      expect((await store.readEvents({ runId: 'a' })).length).toBe(3);
      expect((await store.getRun('a'))?.summary.event_count).toBe(3);
      await store.appendEventBatches([
        { runId: 'a', ...batchOf(a, 3) },
        { runId: 'b', ...batchOf(b, 2) },
      ]);
      expect(await store.readEvents({ runId: 'a' })).toEqual(a);
      expect(await store.readEvents({ runId: 'b' })).toEqual(b);
    });

    it('of two openings appending the same batch at once, one stores it and the other is refused', async () => {
      // Two processes on one store (a server and a worker); both open before the run exists.
      const [a, b] = [await backend().open(), await backend().open()];
      const events = sampleRunEvents({ runId: 'r' });
      await a.runs.createRun({ id: 'r', config: sampleConfig() });
      const results = await Promise.allSettled([
        attempt(() => a.runs.appendEvents({ runId: 'r', ...batchOf(events, 0, 3) })),
        attempt(() => b.runs.appendEvents({ runId: 'r', ...batchOf(events, 0, 3) })),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(String((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason)).toMatch(
        /continue the log at seq 3, got seq 0|UNIQUE|unique/,
      );
      expect(await b.runs.readEvents({ runId: 'r' })).toEqual(events.slice(0, 3));
      expect((await b.runs.getRun('r'))?.summary.event_count).toBe(3);
    });

    it('creates a run with its whole log atomically, or not at all', async () => {
      const store = await open();
      const events = sampleRunEvents({ runId: 'whole' });
      await store.createRun({ id: 'whole', config: sampleConfig(), ...batchOf(events) });
      expect((await store.getRun('whole'))?.summary.event_count).toBe(7);
      const broken = sampleRunEvents({ runId: 'broken' }).filter((e) => e.seq !== 2);
      await expect(
        attempt(() => store.createRun({ id: 'broken', config: sampleConfig(), ...batchOf(broken) })),
      ).rejects.toThrow(/seq 3 breaks/);
      expect(await store.getRun('broken')).toBeUndefined();
      await expect(attempt(() => store.createRun({ id: 'whole', config: sampleConfig() }))).rejects.toThrow();
    });

    it('stores exactly what was streamed: a property named like a credential is data, not dropped', async () => {
      const store = await open();
      // Keys are taken out of values before events reach the store (lib/runtime/redact-secrets);
      // the store itself must not silently change a log, or a stored trace differs from the stream.
      const events = sampleRunEvents({ runId: 'k' });
      events[3] = {
        ...events[3]!,
        args: { path: 'x', password: 'hunter2', nested: [{ secret: 'the answer', authorization: 'none' }] },
      } as (typeof events)[number];
      await store.createRun({ id: 'k', config: sampleConfig() });
      await store.appendEvents({ runId: 'k', ...batchOf(events) });
      const read = await store.readEvents({ runId: 'k' });
      expect(read).toEqual(events);
      expect(read.map((e) => JSON.stringify(e))).toEqual(events.map((e) => JSON.stringify(e)));
    });

    it('reopens the same place at the current schema, its runs there', async () => {
      const first = await backend().open();
      await first.runs.createRun({
        id: 'r1',
        config: sampleConfig(),
        ...batchOf(sampleRunEvents({ runId: 'r1' })),
      });
      await first.close();
      const again = await open();
      expect((await again.getRun('r1'))?.summary.status).toBe('completed');
    });

    it('stores a log encoded where the run was made exactly as the same events: the same log and summary row', async () => {
      const store = await open();
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
    });

    it('stores nothing of a run whose encoded log is not whole, or does not start at seq 0', async () => {
      const store = await open();
      const { events, totals } = batchOf(sampleRunEvents({ runId: 'r' }));
      const log = encodeLog('r', events, totals);
      log.types.pop();
      await expect(attempt(() => store.createRun({ id: 'r', config: sampleConfig(), log }))).rejects.toThrow(
        /not whole/,
      );
      expect(await store.getRun('r')).toBeUndefined();
      await expect(
        attempt(() =>
          store.createRun({
            id: 'r',
            config: sampleConfig(),
            events,
            totals,
            log: encodeLog('r', events, totals),
          }),
        ),
      ).rejects.toThrow(/not both/);
      const late = batchOf(sampleRunEvents({ runId: 'r' }), 2);
      await expect(
        attempt(() =>
          store.createRun({ id: 'r', config: sampleConfig(), log: encodeLog('r', late.events, late.totals) }),
        ),
      ).rejects.toThrow(/continue the log at seq 0, got seq 2/);
      expect(await store.getRun('r')).toBeUndefined();
    });
  });
}
