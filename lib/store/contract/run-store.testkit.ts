import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';
import { encodeLog } from '../encoded-log';
import { batchOf, sampleConfig, sampleRunEvents } from '../sample-run.testkit';
import { attempt, type OpenStores, type StoreBackend } from './store-backends.testkit';

/** The run store's contract: what every backend's run store does, the same. */
export function runStoreContract(backend: () => StoreBackend): void {
  const open = async () => (await backend().open()).runs;

  describe('run store', () => {
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

    it('keeps a summary derived from the events', async () => {
      const store = await open();
      const events = sampleRunEvents({ runId: 'r1' });
      await store.createRun({ id: 'r1', config: sampleConfig(), createdAt: Date.UTC(2025, 0, 1) });
      await store.appendEvents({ runId: 'r1', ...batchOf(events, 0, 4) });
      const mid = (await store.getRun('r1'))!.summary;
      expect(mid).toMatchObject({
        status: 'running',
        reason: null,
        iterations: 1,
        input_tokens: 1000,
        usd: 0.0045,
      });
      await store.appendEvents({ runId: 'r1', ...batchOf(events, 4) });
      const record = (await store.getRun('r1'))!;
      expect(record.config).toEqual(sampleConfig());
      expect(record.summary).toEqual({
        id: 'r1',
        created_at: '2025-01-01T00:00:00.000Z',
        status: 'completed',
        reason: 'end_turn',
        complete: true,
        verdict: null,
        vendor: 'sim-anthropic',
        model: 'claude-sim-sonnet',
        vendors: [{ vendor: 'sim-anthropic', model: 'claude-sim-sonnet' }],
        scenario: 'fix-failing-test',
        title: null,
        preset: 'codesmith',
        overrides: [],
        seed: 1,
        faults: [],
        prompt_set: null,
        iterations: 2,
        input_tokens: 2200,
        output_tokens: 150,
        usd: 0.0088,
        duration_ms: 2500,
        event_count: 7,
        imported: false,
      });
    });

    it('records the task verdict from the log beside the terminate reason', async () => {
      const store = await open();
      const events = sampleRunEvents({ runId: 'v1' });
      const end = events.at(-1)!;
      const verdict = {
        run_id: 'v1',
        seq: end.seq,
        ts: end.ts,
        event: 'task_verdict' as const,
        verdict: 'not_done' as const,
        check: 'test/slugify.test.js',
        detail: '1 passed, 1 failed',
      };
      await store.createRun({
        id: 'v1',
        config: sampleConfig(),
        ...batchOf([...events.slice(0, -1), verdict, { ...end, seq: end.seq + 1 }]),
      });
      expect((await store.getRun('v1'))!.summary).toMatchObject({
        status: 'completed',
        reason: 'end_turn',
        verdict: 'not_done',
      });
      expect((await store.listRuns()).find((r) => r.id === 'v1')?.verdict).toBe('not_done');
    });

    it('lists the columns a person sorts by: title from the log; preset, seed, faults and prompt set from the config', async () => {
      const store = await open();
      const config = RunConfigSchema.parse({
        provider: { vendor: 'sim-openai' },
        preset: 's11',
        seed: 42,
        promptSet: { name: 'terse', version: 2 },
        faults: {
          rules: [
            {
              id: 'r1',
              label: 'overloaded ×3',
              when: { kind: 'next', count: 3 },
              action: { type: 'http_error', status: 529 },
            },
            {
              id: 'off',
              enabled: false,
              when: { kind: 'always' },
              action: { type: 'http_error', status: 500 },
            },
          ],
          tools: [{ id: 't1', tool: 'run_check', kind: 'throw' }],
        },
      });
      const events = sampleRunEvents({ runId: 't1' });
      const end = events.at(-1)!;
      const title = {
        run_id: 't1',
        seq: end.seq,
        ts: end.ts,
        event: 'run_title' as const,
        iteration: 1,
        title: 'Fix slugify',
      };
      await store.createRun({
        id: 't1',
        config,
        ...batchOf([...events.slice(0, -1), title, { ...end, seq: end.seq + 1 }]),
      });
      expect((await store.listRuns())[0]).toMatchObject({
        title: 'Fix slugify',
        preset: 's11',
        seed: 42,
        faults: ['overloaded ×3', 'tools throw (run_check)'],
        prompt_set: { name: 'terse', version: 2 },
      });
    });

    it('lists runs newest first (of one millisecond, the last created first) and marks imported ones', async () => {
      const store = await open();
      await store.createRun({ id: 'old', config: sampleConfig(), createdAt: 1000 });
      await store.createRun({ id: 'new', config: sampleConfig(), createdAt: 3000, imported: true });
      await store.createRun({ id: 'mid', config: sampleConfig(), createdAt: 2000 });
      await store.createRun({ id: 'mid-b', config: sampleConfig(), createdAt: 2000 });
      await store.createRun({ id: 'mid-a', config: sampleConfig(), createdAt: 2000 });
      const runs = await store.listRuns();
      expect(runs.map((r) => r.id)).toEqual(['new', 'mid-a', 'mid-b', 'mid', 'old']);
      expect(runs.map((r) => r.imported)).toEqual([true, false, false, false, false]);
      expect(await store.listRuns({ limit: 1 })).toHaveLength(1);
      expect(await store.getRun('missing')).toBeUndefined();
    });

    it('derives aborted and failed statuses from the terminate reason', async () => {
      const store = await open();
      for (const [id, reason] of [
        ['a', 'abandoned'],
        ['f', 'retries_exhausted'],
      ] as const) {
        await store.createRun({ id, config: sampleConfig() });
        const start = sampleRunEvents({ runId: id })[0]!;
        await store.appendEvents({
          runId: id,
          ...batchOf([
            start,
            {
              run_id: id,
              seq: 1,
              ts: 5,
              event: 'terminate',
              reason,
              complete: false,
              usd_so_far: 0,
              input_tokens: 0,
              output_tokens: 0,
            },
          ]),
        });
      }
      expect((await store.getRun('a'))?.summary.status).toBe('aborted');
      expect((await store.getRun('f'))?.summary.status).toBe('failed');
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

    it('shows every vendor and model a swapped run used, in order, appended batch by batch', async () => {
      const store = await open();
      const events = await runToEnd({
        provider: { vendor: 'sim-anthropic' },
        swaps: [
          { atTurn: 2, vendor: 'sim-openai', model: '' },
          { atTurn: 3, vendor: 'sim-deepseek', model: '' },
        ],
      });
      await keep(store, 'swapped', events);
      const swaps = ofType(events, 'swap');
      const row = (await store.listRuns()).find((r) => r.id === 'swapped')!;
      expect(row.vendors.map((v) => v.vendor)).toEqual(['sim-anthropic', 'sim-openai', 'sim-deepseek']);
      expect(row.vendors[1]).toEqual({ vendor: swaps[0]!.to_vendor, model: swaps[0]!.to_model });
      expect(row.vendor).toBe('sim-anthropic');
      expect((await store.getRun('swapped'))?.summary.vendors).toEqual(row.vendors);
    });

    it('lists a run’s forks, oldest first, with the turn each started from', async () => {
      const store = await open();
      await store.createRun({ id: 'parent', config: sampleConfig(), createdAt: 1 });
      await store.createRun({
        id: 'f2',
        config: sampleConfig(),
        createdAt: 3,
        forkedFrom: { runId: 'parent', turn: 2 },
      });
      await store.createRun({
        id: 'f1',
        config: sampleConfig(),
        createdAt: 2,
        forkedFrom: { runId: 'parent', turn: 1 },
      });
      expect((await store.listForks('parent')).map((f) => [f.id, f.forked_at_turn])).toEqual([
        ['f1', 1],
        ['f2', 2],
      ]);
      expect(await store.listForks('f1')).toEqual([]);
    });
  });

  describe('closing runs a previous process left running', () => {
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

    it('closes a run it is named, its own included, saying why', async () => {
      const stores = await backend().open();
      await stores.runs.createRun({ id: 'mine', config: sampleConfig() });
      await stores.runs.appendEvents({ runId: 'mine', ...batchOf(sampleRunEvents({ runId: 'mine' }), 0, 2) });
      expect(await stores.runs.closeInterruptedRuns()).toEqual([]); // its own, live: left alone
      expect(
        await stores.runs.closeInterruptedRuns({ runId: 'mine', why: 'its resumption diverged' }),
      ).toEqual(['mine']);
      const end = (await stores.runs.readEvents({ runId: 'mine' })).at(-1);
      expect(end).toMatchObject({ seq: 2, event: 'terminate', reason: 'server_restart' });
      expect(JSON.stringify(end)).toContain('its resumption diverged');
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

/** Stores a finished run's log as the server does: created, then appended batch by batch. */
async function keep(store: OpenStores['runs'], id: string, events: RunEvent[], batch = 5): Promise<void> {
  const config = ofType(events, 'run_start')[0]!.config;
  await store.createRun({ id, config });
  for (let i = 0; i < events.length; i += batch) {
    const part = batchOf(events, i, i + batch);
    await store.appendEvents({
      runId: id,
      events: part.events.map((e) => ({ ...e, run_id: id })),
      totals: part.totals,
    });
  }
}

/** The pid of a process that has exited (a child spawned and waited for). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}
