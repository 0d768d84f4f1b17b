import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CassetteSchema,
  SavePromptSetBodySchema,
  SweepGridSchema,
  type SweepRunMetrics,
  type WireExchange,
} from '@/lib/protocol';
import { uploadedTaskDir } from '../data-dir';
import { batchOf, sampleConfig, sampleRunEvents } from '../sample-run.testkit';
import { promptSetKey } from '../visitor-store';
import { attempt, type StoreBackend } from './store-backends.testkit';

const grid = SweepGridSchema.parse({ configurations: [{ id: 'c', preset: 'codesmith' }], seeds: [1] });
const metrics: SweepRunMetrics = {
  job: 0,
  run_id: 's1-0',
  key: 'c|fix-failing-test|none|sim-anthropic',
  seed: 1,
  complete: true,
  reason: 'end_turn',
  verdict: 'done',
  duration_ms: 1000,
  input_tokens: 10,
  output_tokens: 5,
  usd: 0.01,
  attempts: 1,
  failed_attempts: 0,
  wasted_tokens: 0,
  wasted_usd: 0,
  errors_seen: 0,
};

/** A shipped cassette, as a saved one would be. */
const shippedCassette = () =>
  CassetteSchema.parse(
    JSON.parse(
      fs.readFileSync(
        path.join(process.cwd(), 'cassettes/explain-project.sim-anthropic.cassette.json'),
        'utf8',
      ),
    ),
  );

/**
 * The contracts of the stores beside the runs: room mode's ownership records, prompt sets,
 * cassettes, each run's wire and uploaded tasks.
 */
export function roomStoresContract(backend: () => StoreBackend): void {
  describe('visitor store', () => {
    it("records each run's and sweep's visitor; a sweep's runs are its visitor's; unclaimed is nobody's", async () => {
      const { runs, sweeps, visitors } = await backend().open();
      await runs.createRun({ id: 'a1', config: sampleConfig(), createdAt: 1 });
      await runs.createRun({
        id: 'a2',
        config: sampleConfig(),
        ...batchOf(sampleRunEvents({ runId: 'a2' })),
        createdAt: 2,
      });
      await runs.createRun({ id: 'b1', config: sampleConfig(), createdAt: 3 });
      await runs.createRun({ id: 'old', config: sampleConfig(), createdAt: 4 });
      await visitors.claim('run', 'a1', 'A');
      await visitors.claim('run', 'a2', 'A');
      await visitors.claim('run', 'b1', 'B');
      await sweeps.createSweep({ id: 's1', name: 'one', grid, total: 1, runner: 'local' });
      await visitors.claim('sweep', 's1', 'A');
      await runs.createRun({
        id: 's1-0',
        config: sampleConfig(),
        ...batchOf(sampleRunEvents({ runId: 's1-0' })),
        sweep: { sweepId: 's1', job: 0, metrics },
      });

      expect(await visitors.visitorOf('run', 'a1')).toBe('A');
      expect(await visitors.visitorOf('run', 's1-0')).toBe('A');
      expect(await visitors.visitorOf('run', 'old')).toBeNull();
      expect(await visitors.visitorOf('run', 'nope')).toBeUndefined();
      expect(await visitors.visitorOf('sweep', 's1')).toBe('A');
      // Newest first, a sweep's runs left out, as the run list orders them.
      expect(await visitors.runIdsOf('A', 10)).toEqual(['a2', 'a1']);
      expect(await visitors.runIdsOf('A', 1)).toEqual(['a2']);
      expect(await visitors.idsOf('run', 'B')).toEqual(new Set(['b1']));
      expect(await visitors.idsOf('sweep', 'A')).toEqual(new Set(['s1']));
      // a2 has its terminate; a1 is still running.
      expect(await visitors.runningRunsOf('A')).toBe(1);
      expect(await visitors.runningRuns()).toEqual([
        { id: 'a1', visitor: 'A' },
        { id: 'b1', visitor: 'B' },
      ]);
      await expect(attempt(() => visitors.claim('run', 'nope', 'A'))).rejects.toThrow(/no run "nope"/);
    });

    it('claims prompt sets, cassettes and uploaded tasks by their ids', async () => {
      const { promptSets, cassettes, taskUploads, visitors } = await backend().open();
      const set = await promptSets.savePromptSet(
        SavePromptSetBodySchema.parse({ name: 'terse', system: 'Be terse.' }),
      );
      const key = promptSetKey(set.name, set.version);
      const cassette = await cassettes.saveCassette({ name: 'c', cassette: shippedCassette() });
      const files = { 'TASK.md': '# A task\n' };
      const task = await taskUploads.saveTaskUpload({
        sha256: createHash('sha256').update('a task').digest('hex'),
        files,
        task_id: 'a-task',
        title: 'A task',
        summary: 'One file.',
        hidden: 0,
      });
      await visitors.claim('prompt_set', key, 'A');
      await visitors.claim('cassette', cassette.id, 'B');
      await visitors.claim('task', task.id, 'A');
      expect(await visitors.visitorOf('prompt_set', key)).toBe('A');
      expect(await visitors.idsOf('prompt_set', 'A')).toEqual(new Set([key]));
      expect(await visitors.visitorOf('cassette', cassette.id)).toBe('B');
      expect(await visitors.idsOf('task', 'A')).toEqual(new Set([task.id]));
      await expect(attempt(() => visitors.claim('prompt_set', 'terse@2', 'A'))).rejects.toThrow(
        /no prompt_set "terse@2"/,
      );
    });

    it('keeps share links by their hash until revoked, and lesson plays oldest first', async () => {
      const { runs, visitors } = await backend().open();
      await runs.createRun({ id: 'r', config: sampleConfig() });
      await visitors.addShare('r', 'h1', 10);
      await visitors.addShare('r', 'h2', 11);
      expect(await visitors.runOfShare('h1')).toBe('r');
      expect(await visitors.runOfShare('never')).toBeUndefined();
      expect(await visitors.revokeShares('r', 20)).toBe(2);
      expect(await visitors.revokeShares('r', 21)).toBe(0);
      expect(await visitors.runOfShare('h1')).toBeUndefined();
      await visitors.addLessonPlay({ slug: 'b', on: 'on2', off: 'off2', visitor: 'A', createdAt: 5 });
      await visitors.addLessonPlay({ slug: 'a', on: 'on1', off: 'off1', visitor: null, createdAt: 5 });
      await visitors.addLessonPlay({ slug: 'a', on: 'on0', off: 'off0', visitor: 'B', createdAt: 1 });
      expect((await visitors.lessonPlays()).map((p) => p.on)).toEqual(['on0', 'on2', 'on1']);
      expect((await visitors.lessonPlays())[2]).toEqual({
        slug: 'a',
        on: 'on1',
        off: 'off1',
        visitor: null,
        createdAt: 5,
      });
    });
  });

  describe('prompt set store', () => {
    it('saving under an existing name makes the next version; earlier versions stay as they were', async () => {
      let clock = Date.UTC(2026, 0, 1);
      const { promptSets: store } = await backend().open({ now: () => (clock += 1000) });
      const save = (input: Parameters<typeof SavePromptSetBodySchema.parse>[0]) =>
        store.savePromptSet(SavePromptSetBodySchema.parse(input));
      const v1 = await save({ name: 'terse', system: 'Be terse.' });
      const v2 = await save({
        name: 'terse',
        system: 'Be terse. Run the check last.',
        toolDescriptions: { search: 'Find text.' },
      });
      const other = await save({ name: 'careful', system: 'Be careful.' });
      expect([v1.version, v2.version, other.version]).toEqual([1, 2, 1]);
      expect(await store.getPromptSet('terse', 1)).toEqual(v1);
      expect(await store.getPromptSet('terse', 2)).toMatchObject({
        system: 'Be terse. Run the check last.',
        task: '',
        toolDescriptions: { search: 'Find text.' },
      });
      expect(await store.getPromptSet('terse', 3)).toBeUndefined();
      expect((await store.listPromptSets()).map((s) => `${s.name} v${s.version}`)).toEqual([
        'careful v1',
        'terse v2',
        'terse v1',
      ]);
    });

    it('lists sets saved in the same millisecond by name in byte order (capitals first), then newest version', async () => {
      const { promptSets: store } = await backend().open({ now: () => 7 });
      for (const name of ['beta', 'Zed', 'alpha', 'beta'])
        await store.savePromptSet(SavePromptSetBodySchema.parse({ name, system: name }));
      expect((await store.listPromptSets()).map((s) => `${s.name} v${s.version}`)).toEqual([
        'Zed v1',
        'alpha v1',
        'beta v2',
        'beta v1',
      ]);
    });
  });

  describe('cassette store', () => {
    it('saves a cassette as its file, lists it newest first and reads it back whole', async () => {
      let clock = 1000;
      const { cassettes } = await backend().open({ now: () => (clock += 1) });
      const cassette = shippedCassette();
      const first = await cassettes.saveCassette({ name: 'first', cassette, fromRun: 'r1' });
      const second = await cassettes.saveCassette({ name: 'second', cassette });
      expect(first).toMatchObject({
        name: 'first',
        from_run: 'r1',
        shipped: false,
        exchanges: cassette.exchanges.length,
        bytes: Buffer.byteLength(JSON.stringify(cassette)),
        created_at: new Date(1001).toISOString(),
      });
      expect(second).not.toHaveProperty('from_run');
      expect((await cassettes.listCassettes()).map((c) => c.name)).toEqual(['second', 'first']);
      expect(await cassettes.getCassette(first.id)).toEqual({ summary: first, cassette });
      expect(await cassettes.getCassette('nope')).toBeUndefined();
    });
  });

  describe('wire store', () => {
    const exchange = (n: number): WireExchange => ({
      n,
      vendor: 'sim-openai',
      dialect: 'openai',
      at_ms: n * 100,
      request: {
        method: 'POST',
        url: 'http://sim.openai.local/v1/chat/completions',
        headers: {},
        body: 'x'.repeat(400),
      },
    });

    it('keeps requests within its bound; past it, each by number with the reason; read back after a reopen', async () => {
      const first = await backend().open();
      await first.runs.createRun({ id: 'r', config: sampleConfig() });
      const size = Buffer.byteLength(JSON.stringify(exchange(1)));
      for (const n of [1, 2, 3])
        await first.wire.keepWire({ runId: 'r', exchange: exchange(n), maxBytes: size * 2 });
      // Kept again (a request's wire written twice): replaced, not added.
      await first.wire.keepWire({ runId: 'r', exchange: exchange(2), maxBytes: size * 3 });
      await first.close();
      const { wire } = await backend().open();
      const kept = await wire.readWire('r');
      expect(kept.map((r) => r.n)).toEqual([1, 2, 3]);
      expect(kept.slice(0, 2).map((r) => r.exchange)).toEqual([exchange(1), exchange(2)]);
      expect(kept[2]!.exchange).toBeUndefined();
      expect(kept[2]!.omitted).toMatch(/this run's wire reached its bound of .* before request 3/);
      expect(await wire.readWire('r', 2)).toEqual([kept[1]]);
      expect(await wire.readWire('r', 999)).toEqual([]);
    });
  });

  describe('task upload store', () => {
    it('keeps an upload’s row and its files in the data folder, lists uploads newest first', async () => {
      const { taskUploads } = await backend().open({ now: () => 5 });
      const sha256 = createHash('sha256').update('two files').digest('hex');
      const files = { 'TASK.md': '# Fix it\n', 'src/a.js': 'export const a = 1;\n' };
      const one = await taskUploads.saveTaskUpload({
        sha256,
        files,
        task_id: 'fix-it',
        title: 'Fix it',
        summary: 's',
        hidden: 1,
      });
      const two = await taskUploads.saveTaskUpload({
        sha256,
        files,
        task_id: 'fix-it',
        title: 'Fix it',
        summary: 's',
        hidden: 1,
      });
      expect(one).toMatchObject({
        sha256,
        task_id: 'fix-it',
        files: 2,
        bytes: 9 + 20,
        hidden: 1,
        created_at: new Date(5).toISOString(),
      });
      expect(fs.readFileSync(path.join(uploadedTaskDir(sha256, backend().dir), 'src', 'a.js'), 'utf8')).toBe(
        files['src/a.js'],
      );
      expect(await taskUploads.getTaskUpload(one.id)).toEqual(one);
      expect(await taskUploads.getTaskUpload('task-nope')).toBeUndefined();
      // Same millisecond: the later upload first.
      expect((await taskUploads.listTaskUploads()).map((t) => t.id)).toEqual([two.id, one.id]);
    });
  });
}
