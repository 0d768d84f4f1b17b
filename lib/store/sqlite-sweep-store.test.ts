import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SweepGridSchema, type SweepRunMetrics } from '@/lib/protocol';
import { createSqliteRunStore } from './sqlite-run-store';
import { createSqliteSweepStore } from './sqlite-sweep-store';
import { sampleConfig, sampleRunEvents } from './sample-run';
import type { RunStore } from './run-store';
import type { SweepStore } from './sweep-store';

let dir: string;
let runs: RunStore;
let sweeps: SweepStore;
const grid = SweepGridSchema.parse({ configurations: [{ id: 'c', preset: 'codesmith' }], seeds: [1, 2] });
const metrics = (job: number): SweepRunMetrics => ({
  job, run_id: `s1-${job}`, key: 'c|fix-failing-test|none|sim-anthropic', seed: job + 1, complete: true, reason: 'end_turn', verdict: 'done',
  duration_ms: 1000, input_tokens: 10, output_tokens: 5, usd: 0.01, attempts: 1, failed_attempts: 0, wasted_tokens: 0, wasted_usd: 0, errors_seen: 0,
});

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-sweeps-'));
  runs = createSqliteRunStore({ dir });
  sweeps = createSqliteSweepStore({ dir });
});
afterEach(() => {
  runs.close();
  sweeps.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sqlite sweep store', () => {
  it('keeps a sweep, its progress and its runs’ metrics, written with each run in one transaction', () => {
    sweeps.createSweep({ id: 's1', name: 'two seeds', grid, total: 2, runner: 'local', createdAt: 5 });
    runs.createRun({ id: 's1-1', config: sampleConfig(), events: sampleRunEvents({ runId: 's1-1' }), sweep: { sweepId: 's1', job: 1, metrics: metrics(1) } });
    runs.createRun({ id: 's1-0', config: sampleConfig(), events: sampleRunEvents({ runId: 's1-0' }), sweep: { sweepId: 's1', job: 0, metrics: metrics(0) } });
    sweeps.updateSweep({ id: 's1', done: 2, elapsedMs: 40, status: 'completed' });
    expect(sweeps.getSweep('s1')).toEqual({
      grid,
      summary: { id: 's1', name: 'two seeds', created_at: new Date(5).toISOString(), status: 'completed', total: 2, done: 2, elapsed_ms: 40, runner: 'local' },
    });
    expect(sweeps.readSweepMetrics('s1')).toEqual([metrics(0), metrics(1)]);
    expect(runs.listRuns({ sweepId: 's1' }).map((r) => r.id).sort()).toEqual(['s1-0', 's1-1']);
    expect(runs.listRuns()).toEqual([]);
  });

  it('writes neither the run nor its metrics when the log is broken', () => {
    sweeps.createSweep({ id: 's1', name: 'x', grid, total: 1, runner: 'local' });
    const broken = sampleRunEvents({ runId: 's1-0' }).filter((e) => e.seq !== 2);
    expect(() => runs.createRun({ id: 's1-0', config: sampleConfig(), events: broken, sweep: { sweepId: 's1', job: 0, metrics: metrics(0) } })).toThrow();
    expect(runs.getRun('s1-0')).toBeUndefined();
    expect(sweeps.readSweepMetrics('s1')).toEqual([]);
  });

  it('marks sweeps a previous process left running as failed', () => {
    sweeps.createSweep({ id: 's1', name: 'x', grid, total: 2, runner: 'local' });
    expect(sweeps.closeInterrupted('the server stopped while this sweep ran')).toBe(1);
    expect(sweeps.getSweep('s1')?.summary).toMatchObject({ status: 'failed', message: 'the server stopped while this sweep ran' });
  });
});
