import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SweepGridSchema, type SweepRunMetrics } from '@/lib/protocol';
import { batchOf, sampleConfig, sampleRunEvents } from './sample-run.testkit';
import { createSqliteRunStore, DB_FILE_NAME } from './sqlite-run-store';
import { migrate, SCHEMA_VERSION } from './sqlite-schema';
import { createSqliteSweepStore } from './sqlite-sweep-store';
import { createSqliteVisitorStore } from './sqlite-visitor-store';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-visitors-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

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

describe('room mode ownership in the store', () => {
  it("records each run's and sweep's visitor; a sweep's runs are its visitor's; unclaimed is nobody's", async () => {
    const runs = createSqliteRunStore({ dir });
    const sweeps = createSqliteSweepStore({ dir });
    const visitors = createSqliteVisitorStore({ dir });
    try {
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
      // a2 has its terminate; a1 is still running.
      expect(await visitors.runningRunsOf('A')).toBe(1);
      await expect(visitors.claim('run', 'nope', 'A')).rejects.toThrow(/no run "nope"/);
    } finally {
      await visitors.close();
      await sweeps.close();
      await runs.close();
    }
  });

  it("opens a database stored before visitors were kept: its rows are nobody's", async () => {
    const old = new Database(path.join(dir, DB_FILE_NAME));
    // Before the visitors' migration (the wire's and the share links' came after it).
    migrate(old, SCHEMA_VERSION - 3);
    old
      .prepare("INSERT INTO runs (id, created_at, config) VALUES ('r', 1, ?)")
      .run(JSON.stringify(sampleConfig()));
    old.close();
    const visitors = createSqliteVisitorStore({ dir });
    try {
      expect(await visitors.visitorOf('run', 'r')).toBeNull();
      await visitors.claim('run', 'r', 'A');
      expect(await visitors.runIdsOf('A', 5)).toEqual(['r']);
    } finally {
      await visitors.close();
    }
  });
});
