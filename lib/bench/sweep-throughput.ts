import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SweepGridSchema } from '@/lib/protocol';
import { createSqliteRunStore, createSqliteSweepStore } from '@/lib/store';
import { executeSweep } from '@/lib/sweeps/execute-sweep';
import { expandGrid } from '@/lib/sweeps/expand-grid';
import { createLocalPool, defaultWorkerCount } from '@/lib/sweeps/local-pool';
import { runSweepJob } from '@/lib/sweeps/run-sweep-job';

export interface SweepThroughput {
  workers: number;
  runs: number;
  /** Runs a second of the same jobs, one after another, in this process. */
  oneCoreRunsPerSec: number;
  /** Runs a second through the worker pool, stored in SQLite, after the workers have loaded. */
  poolRunsPerSec: number;
  rssBaselineMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
}

const mb = (bytes: number): number => bytes / 1024 / 1024;

/**
 * A sweep's throughput on every core against the same jobs on one core in one process, and
 * the server process's memory (worker threads included) before, during and after the sweep.
 */
export async function measureSweepThroughput({ runs, oneCoreRuns }: { runs: number; oneCoreRuns: number }): Promise<SweepThroughput> {
  const grid = SweepGridSchema.parse({
    configurations: [{ id: 'codesmith', preset: 'codesmith' }, { id: 'naive', preset: 'naive' }],
    faultPlans: [
      { id: 'none' },
      { id: 'overloaded', plan: { rules: [{ id: 'o', when: { kind: 'requests', numbers: [2, 3] }, action: { type: 'http_error', status: 529 } }] } },
    ],
    seeds: { from: 1, to: Math.ceil(runs / 4) },
  });
  const jobs = expandGrid(grid);

  // One core: the first jobs in list order (all four cells), warm first.
  const sample = [0, 1, 2, 3].flatMap((cell) => jobs.filter((j) => j.key === jobs[cell * (jobs.length / 4)]!.key).slice(0, Math.ceil(oneCoreRuns / 4)));
  for (const job of sample.slice(0, 4)) await runSweepJob({ sweepId: 'warm', job });
  let started = performance.now();
  for (const job of sample) await runSweepJob({ sweepId: 'one', job });
  const oneCoreRunsPerSec = (sample.length * 1000) / (performance.now() - started);

  global.gc?.();
  const rssBaselineMb = mb(process.memoryUsage().rss);
  const dir = mkdtempSync(join(tmpdir(), 'loop-lab-bench-sweep-'));
  const runStore = createSqliteRunStore({ dir });
  const sweepStore = createSqliteSweepStore({ dir });
  const workers = defaultWorkerCount();
  const pool = createLocalPool({ workers });
  let peak = rssBaselineMb;
  const sampler = setInterval(() => (peak = Math.max(peak, mb(process.memoryUsage().rss))), 100);
  try {
    // Load the engine in every worker before the clock starts.
    await Promise.all(jobs.slice(0, workers * 2).map((job) => pool.run({ sweepId: 'warm', job })));
    started = performance.now();
    const outcome = await executeSweep({ sweepId: 'bench', grid, runner: pool, runStore, sweepStore });
    if (outcome.status !== 'completed') throw new Error(`bench sweep ${outcome.status}: ${outcome.message ?? ''}`);
    const poolRunsPerSec = (jobs.length * 1000) / (performance.now() - started);
    await pool.close();
    clearInterval(sampler);
    runStore.close();
    sweepStore.close();
    rmSync(dir, { recursive: true, force: true });
    global.gc?.();
    await new Promise((r) => setTimeout(r, 500));
    global.gc?.();
    return { workers, runs: jobs.length, oneCoreRunsPerSec, poolRunsPerSec, rssBaselineMb, rssPeakMb: peak, rssAfterMb: mb(process.memoryUsage().rss) };
  } finally {
    clearInterval(sampler);
  }
}
