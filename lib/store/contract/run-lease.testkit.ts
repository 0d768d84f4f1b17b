import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol';
import { CREATED_LEASE, RunLeaseLost } from '../run-store';
import { batchOf, sampleRunEvents } from '../sample-run.testkit';
import type { StoreBackend } from './store-backends.testkit';

/**
 * The run store's fence: each claim of a run raises its lease, and a write under an older lease
 * is refused whole, so a holder that stalled past its hold cannot write into the log of the
 * process that took the run over.
 */
export function runLeaseContract(backend: () => StoreBackend): void {
  describe('the lease a run is held under', () => {
    const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual' });
    const events = sampleRunEvents({ runId: 'fenced' });

    it('refuses the writes of a holder the run was taken from, and keeps the new holder’s', async () => {
      const web = await backend().open({ keepResumable: true });
      await web.runs.createRun({ id: 'fenced', config });
      const first = await backend().open({ keepResumable: true });
      const taken = await first.runs.takeOverRun({ runId: 'fenced' });
      expect(taken?.lease).toBe(CREATED_LEASE + 1);
      await first.runs.appendEvents({ runId: 'fenced', ...batchOf(events, 0, 3), lease: taken!.lease });

      // The first holder stalls; another takes the run over from the stored log.
      const second = await backend().open({ keepResumable: true });
      const again = await second.runs.takeOverRun({ runId: 'fenced' });
      expect(again).toMatchObject({ eventCount: 3, lease: taken!.lease + 1 });
      expect(await first.runs.holdsLease({ runId: 'fenced', lease: taken!.lease })).toBe(false);
      expect(await second.runs.holdsLease({ runId: 'fenced', lease: again!.lease })).toBe(true);

      // The first wakes and writes the batch that would follow: refused, though it fits the log.
      const stale = first.runs.appendEvents({
        runId: 'fenced',
        ...batchOf(events, 3, 5),
        lease: taken!.lease,
      });
      await expect(stale).rejects.toBeInstanceOf(RunLeaseLost);
      await expect(stale).rejects.toThrow(/another holder has taken it over/);
      // In a transaction with another run's batch: neither is stored.
      await web.runs.createRun({ id: 'beside', config });
      const beside = sampleRunEvents({ runId: 'beside' });
      await expect(
        first.runs.appendEventBatches([
          { runId: 'beside', ...batchOf(beside, 0, 2) },
          { runId: 'fenced', ...batchOf(events, 3, 5), lease: taken!.lease },
        ]),
      ).rejects.toBeInstanceOf(RunLeaseLost);
      expect(await web.runs.readEvents({ runId: 'beside' })).toEqual([]);
      // Nor can it close the run it lost, by name under its lease.
      await expect(
        first.runs.closeInterruptedRuns({ runId: 'fenced', why: 'stale', lease: taken!.lease }),
      ).rejects.toBeInstanceOf(RunLeaseLost);
      expect((await web.runs.getRun('fenced'))?.summary).toMatchObject({ status: 'running', event_count: 3 });

      // The new holder's batches go on from where the store stood, to the end.
      await second.runs.appendEvents({
        runId: 'fenced',
        ...batchOf(events, 3, events.length),
        lease: again!.lease,
      });
      expect(await web.runs.readEvents({ runId: 'fenced' })).toEqual(events);
      expect((await web.runs.getRun('fenced'))?.summary.status).not.toBe('running');
    });

    it('gives each claim its own lease, even a second takeover by the same opening', async () => {
      const stores = await backend().open({ keepResumable: true });
      await stores.runs.createRun({ id: 'twice', config });
      // The creator writes under the lease a created run starts with.
      await stores.runs.appendEvents({
        runId: 'twice',
        ...batchOf(sampleRunEvents({ runId: 'twice' }), 0, 1),
        lease: CREATED_LEASE,
      });
      const one = await stores.runs.takeOverRun({ runId: 'twice' });
      const two = await stores.runs.takeOverRun({ runId: 'twice' });
      expect([one?.lease, two?.lease]).toEqual([CREATED_LEASE + 1, CREATED_LEASE + 2]);
      await expect(
        stores.runs.appendEvents({
          runId: 'twice',
          ...batchOf(sampleRunEvents({ runId: 'twice' }), 1, 2),
          lease: one!.lease,
        }),
      ).rejects.toBeInstanceOf(RunLeaseLost);
      // A batch that names no lease is written whoever holds the run (an import, a sweep's log).
      await stores.runs.appendEvents({
        runId: 'twice',
        ...batchOf(sampleRunEvents({ runId: 'twice' }), 1, 2),
      });
      expect((await stores.runs.getRun('twice'))?.summary.event_count).toBe(2);
      // A stale holder's close is refused; the holder's own closes the run after its last event.
      expect(
        await stores.runs.closeInterruptedRuns({ runId: 'twice', why: 'its own end', lease: two!.lease }),
      ).toEqual(['twice']);
      expect((await stores.runs.readEvents({ runId: 'twice' })).at(-1)).toMatchObject({
        seq: 2,
        event: 'terminate',
      });
    });
  });
}
