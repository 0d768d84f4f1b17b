import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol';
import { deadPid } from '@/lib/testing/local-process';
import { batchOf, sampleConfig, sampleRunEvents } from '../sample-run.testkit';
import type { StoreBackend } from './store-backends.testkit';

/** The run store's contract, who owns a running run: closing the runs a previous process left running, and handing one over. */
export function runOwnershipContract(backend: () => StoreBackend): void {
  const open = async () => (await backend().open()).runs;

  describe('run store: closing runs a previous process left running', () => {
    /** A run cut off mid-flight: its first events stored, no terminate; the opening then "dies". */
    const leaveRunning = async (id: string, events = 3): Promise<void> => {
      const before = await backend().open();
      await before.runs.createRun({ id, config: sampleConfig() });
      await before.runs.appendEvents({ runId: id, ...batchOf(sampleRunEvents({ runId: id }), 0, events) });
      await before.close();
    };

    it('closes them at store open with a server_restart terminate after the last stored event', async () => {
      await leaveRunning('cut');
      const after = await open();
      expect((await after.getRun('cut'))?.summary).toMatchObject({
        status: 'failed',
        reason: 'server_restart',
        complete: false,
        event_count: 4,
      });
      const end = (await after.readEvents({ runId: 'cut' })).at(-1);
      expect(end).toMatchObject({ seq: 3, event: 'terminate', reason: 'server_restart', input_tokens: 1000 });
      expect(end?.event === 'terminate' && end.message).toMatch(
        /^the server process stopped while this run was in flight; its log ends at the last event stored \(3 events\), and the run was closed when the server started again/,
      );
      expect((await after.listRuns()).filter((r) => r.status === 'running')).toEqual([]);
    });

    it('closes a run that has no owner recorded (written before owners existed)', async () => {
      await leaveRunning('legacy', 1);
      await backend().setOwner('runs', 'legacy', null);
      const after = await open();
      expect((await after.getRun('legacy'))?.summary.reason).toBe('server_restart');
    });

    it('leaves alone a run whose owner is another live process on the same store', async () => {
      await leaveRunning('elsewhere');
      await backend().setOwner('runs', 'elsewhere', `${os.hostname()}:${process.ppid}:another-opening`);
      const after = await open();
      expect((await after.getRun('elsewhere'))?.summary.status).toBe('running');
      expect(await after.closeInterruptedRuns()).toEqual([]);
      // Named, it is still another live process's: only the registry's own runs are closed by name.
      expect(
        await after.closeInterruptedRuns({ runId: 'elsewhere', why: 'its resumption diverged' }),
      ).toEqual([]);
    });

    it('closes a run whose owning process has exited', async () => {
      await leaveRunning('dead');
      await backend().setOwner('runs', 'dead', `${os.hostname()}:${deadPid()}:gone`);
      const after = await open();
      expect((await after.getRun('dead'))?.summary.reason).toBe('server_restart');
    });

    it('closes a run it is named, its own included, saying why in the words of the caller alone', async () => {
      const stores = await backend().open();
      await stores.runs.createRun({ id: 'mine', config: sampleConfig() });
      await stores.runs.appendEvents({ runId: 'mine', ...batchOf(sampleRunEvents({ runId: 'mine' }), 0, 2) });
      expect(await stores.runs.closeInterruptedRuns()).toEqual([]); // its own, live: left alone
      const why = 'the run queue gave up on its job (a test said so), so no worker executes it any more';
      expect(await stores.runs.closeInterruptedRuns({ runId: 'mine', why })).toEqual(['mine']);
      const end = (await stores.runs.readEvents({ runId: 'mine' })).at(-1);
      expect(end).toMatchObject({ seq: 2, event: 'terminate', reason: 'server_restart' });
      // No server restarted here: the message is the caller's reason and what the log holds, nothing more.
      expect(end?.event === 'terminate' && end.message).toBe(
        `${why}; its log ends at the last event stored (2 events)`,
      );
    });

    it('leaves a resumable run for the registry to claim (keepResumable); a live claimer keeps it', async () => {
      const resumable = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual' });
      const before = await backend().open();
      await before.runs.createRun({ id: 'again', config: resumable });
      await before.runs.appendEvents({
        runId: 'again',
        ...batchOf(sampleRunEvents({ runId: 'again' }), 0, 3),
      });
      await before.close();
      const server = await backend().open({ keepResumable: true });
      // A simulated vendor on the virtual clock can be resumed (lib/protocol/restart.ts): left running.
      expect((await server.runs.getRun('again'))?.summary.status).toBe('running');
      expect(await server.runs.claimInterruptedRuns()).toEqual([
        { id: 'again', forked: false, config: resumable, lease: 1 },
      ]);
      expect(await server.runs.claimInterruptedRuns()).toEqual([]); // its own now: live
      // Resumed by a live process elsewhere: another opening neither claims it nor closes it.
      await backend().setOwner('runs', 'again', `${os.hostname()}:${process.ppid}:another-opening`);
      const other = await backend().open({ keepResumable: true });
      expect(await other.runs.claimInterruptedRuns()).toEqual([]);
      // Nor does an opening that closes every resumable run (not keepResumable).
      expect((await (await backend().open()).runs.getRun('again'))?.summary.status).toBe('running');
    });

    it('hands a running run to the worker that takes it over, whoever held it, with what it has stored and whether it can go on', async () => {
      const resumable = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual' });
      const web = await backend().open({ keepResumable: true });
      await web.runs.createRun({ id: 'queued', config: resumable });
      await web.runs.createRun({ id: 'cut', config: sampleConfig() });
      await web.runs.appendEvents({ runId: 'cut', ...batchOf(sampleRunEvents({ runId: 'cut' }), 0, 3) });
      const worker = await backend().open({ keepResumable: true });
      expect(await worker.runs.takeOverRun({ runId: 'queued' })).toEqual({
        id: 'queued',
        config: resumable,
        forked: false,
        eventCount: 0,
        refusal: undefined,
        lease: 1,
      });
      const taken = await worker.runs.takeOverRun({ runId: 'cut' });
      expect(taken).toMatchObject({ id: 'cut', eventCount: 3, forked: false });
      // A run that cannot be re-executed says why, for the worker to end it with that reason.
      expect(typeof taken!.refusal === 'string' || taken!.refusal === undefined).toBe(true);
      // An ended run, or one that does not exist, is nobody's to take.
      await worker.runs.appendEvents({
        runId: 'cut',
        ...batchOf(sampleRunEvents({ runId: 'cut' }), 3, sampleRunEvents({ runId: 'cut' }).length),
      });
      expect(await worker.runs.takeOverRun({ runId: 'cut' })).toBeUndefined();
      expect(await worker.runs.takeOverRun({ runId: 'nope' })).toBeUndefined();
    });
  });
}
