import { describe, expect, it } from 'vitest';
import { RunConfigSchema, stampEvent, type EventBody, type RunEvent } from '@/lib/protocol';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';
import { batchOf, keepLog, sampleConfig, sampleRunEvents } from '../sample-run.testkit';
import type { StoreBackend } from './store-backends.testkit';

/** The run store's contract, its summaries and lists: what every backend derives from a run's log and lists the same. */
export function runListContract(backend: () => StoreBackend): void {
  const open = async () => (await backend().open()).runs;

  describe('run store: summaries and lists', () => {
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
      const events = beforeEnd(sampleRunEvents({ runId: 'v1' }), {
        event: 'task_verdict',
        verdict: 'not_done',
        check: 'test/slugify.test.js',
        detail: '1 passed, 1 failed',
      });
      await store.createRun({ id: 'v1', config: sampleConfig(), ...batchOf(events) });
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
      const events = beforeEnd(sampleRunEvents({ runId: 't1' }), {
        event: 'run_title',
        iteration: 1,
        title: 'Fix slugify',
      });
      await store.createRun({ id: 't1', config, ...batchOf(events) });
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

    it('shows every vendor and model a swapped run used, in order, appended batch by batch', async () => {
      const store = await open();
      const events = await runToEnd({
        provider: { vendor: 'sim-anthropic' },
        swaps: [
          { atTurn: 2, vendor: 'sim-openai', model: '' },
          { atTurn: 3, vendor: 'sim-deepseek', model: '' },
        ],
      });
      await keepLog(store, 'swapped', events);
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
}

/** A log with one more event just before its terminate, at the terminate's seq and time, as a run writes it. */
function beforeEnd(events: RunEvent[], body: EventBody): RunEvent[] {
  const end = events.at(-1)!;
  return [
    ...events.slice(0, -1),
    stampEvent(body, { run_id: end.run_id, seq: end.seq, ts: end.ts }),
    { ...end, seq: end.seq + 1 },
  ];
}
