import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteRunStore } from './sqlite-run-store';
import type { RunStore } from './run-store';
import { batchOf, sampleConfig, sampleRunEvents } from './sample-run.testkit';
import { RunConfigSchema } from '@/lib/protocol';

let dir: string;
let store: RunStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-store-'));
  store = createSqliteRunStore({ dir });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sqlite run store', () => {
  it('appends events and reads them back from a seq', async () => {
    const events = sampleRunEvents({ runId: 'r1' });
    await store.createRun({ id: 'r1', config: sampleConfig(), createdAt: 1000 });
    await store.appendEvents({ runId: 'r1', ...batchOf(events, 0, 3) });
    await store.appendEvents({ runId: 'r1', ...batchOf(events, 3) });
    expect(await store.readEvents({ runId: 'r1' })).toEqual(events);
    expect((await store.readEvents({ runId: 'r1', afterSeq: 4 })).map((e) => e.seq)).toEqual([5, 6]);
    expect(await store.readEvents({ runId: 'r1', afterSeq: 6 })).toEqual([]);
  });

  it('refuses a batch that would leave a gap or repeat a seq, and changes nothing', async () => {
    const events = sampleRunEvents({ runId: 'r1' });
    await store.createRun({ id: 'r1', config: sampleConfig() });
    await store.appendEvents({ runId: 'r1', ...batchOf(events, 0, 2) });
    await expect(store.appendEvents({ runId: 'r1', ...batchOf(events, 3, 4) })).rejects.toThrow(
      /continue the log at seq 2/,
    );
    await expect(store.appendEvents({ runId: 'r1', ...batchOf(events, 1, 3) })).rejects.toThrow(
      /seq 2, got seq 1/,
    );
    await expect(store.appendEvents({ runId: 'nope', ...batchOf(events, 0, 1) })).rejects.toThrow(
      /does not exist/,
    );
    expect((await store.getRun('r1'))?.summary.event_count).toBe(2);
  });

  it('creates a run with its whole log atomically, or not at all', async () => {
    const events = sampleRunEvents({ runId: 'whole' });
    await store.createRun({ id: 'whole', config: sampleConfig(), ...batchOf(events) });
    expect((await store.getRun('whole'))?.summary.event_count).toBe(7);
    const broken = sampleRunEvents({ runId: 'broken' }).filter((e) => e.seq !== 2);
    await expect(
      store.createRun({ id: 'broken', config: sampleConfig(), ...batchOf(broken) }),
    ).rejects.toThrow(/seq 3 breaks/);
    expect(await store.getRun('broken')).toBeUndefined();
  });

  it('keeps a summary derived from the events', async () => {
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

  it('lists runs newest first and marks imported ones', async () => {
    await store.createRun({ id: 'old', config: sampleConfig(), createdAt: 1000 });
    await store.createRun({ id: 'new', config: sampleConfig(), createdAt: 3000, imported: true });
    await store.createRun({ id: 'mid', config: sampleConfig(), createdAt: 2000 });
    const runs = await store.listRuns();
    expect(runs.map((r) => r.id)).toEqual(['new', 'mid', 'old']);
    expect(runs.map((r) => r.imported)).toEqual([true, false, false]);
    expect(await store.listRuns({ limit: 1 })).toHaveLength(1);
    expect(await store.getRun('missing')).toBeUndefined();
  });

  it('derives aborted and failed statuses from the terminate reason', async () => {
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

  it('reopens an existing file at the current schema version', async () => {
    await store.createRun({ id: 'r1', config: sampleConfig() });
    await store.close();
    store = createSqliteRunStore({ dir });
    expect(await store.getRun('r1')).toBeDefined();
  });
});
