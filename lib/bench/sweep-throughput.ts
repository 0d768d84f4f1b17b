import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SweepGridSchema } from '@/lib/protocol';
import { createSqliteRunStore, createSqliteSweepStore } from '@/lib/store';
import { executeSweep } from '@/lib/sweeps/execute-sweep';
import { expandGrid, type SweepJob } from '@/lib/sweeps/expand-grid';
import { createLocalPool, defaultWorkerCount } from '@/lib/sweeps/local-pool';
import { runSweepJob } from '@/lib/sweeps/run-sweep-job';
import { enableCheckResultCache } from '@/lib/tools/check/check-result-cache';
import { sweepWorkerBundle } from '@/lib/sweeps/worker-bundle';
import { parseWithSdkAlone, recordTrajectory, type Trajectory } from './record-trajectory';
import { assertSameBytes, runSimWithSdk } from './sim-sdk-ceiling';
import { mainThreadCpuMs, peakRssMb, resetPeakRss } from './proc-memory';
import { median } from './stats';

export interface SweepThroughput {
  workers: number;
  runs: number;
  /** Runs of the sweep recorded for the SDK-alone side (the same share of every cell). */
  recorded: number;
  /** Model exchanges per recorded run, on average. */
  exchangesPerRun: number;
  /** Trajectories a second of the bare SDK parsing the recorded runs' bytes, one core (median of rounds before and after the sweep). */
  sdkRunsPerSec: number;
  /**
   * The same recorded runs' simulated vendor + SDK work alone (no engine, tools or store), runs a
   * second on one core, in this process just before and after the sweep (median of rounds): the
   * sweep's ceiling is `workers` × this, measured at the same moment as the sweep.
   */
  simSdkRunsPerSec: number;
  /** Runs a second of the recorded jobs through the whole runtime, one after another in this process. */
  oneCoreRunsPerSec: number;
  /** Runs a second of the whole sweep through the worker pool, stored in SQLite, workers loaded. */
  poolRunsPerSec: number;
  /** Wall ms to have the worker bundle ready (built, or reused when no source changed). */
  bundleMs: number;
  /** Wall ms from creating the pool (bundle ready) to every worker having finished its first job. */
  workerStartMs: number;
  /** CPU ms a run, the whole process (every thread), one after another in this process. */
  oneCoreCpuMsPerRun: number;
  /** CPU ms a run, the whole process (workers, V8's helper threads, main), through the pool. */
  poolCpuMsPerRun: number;
  /** CPU ms a run of the main thread alone during the pool's sweep (receiving and storing); null off Linux. */
  mainCpuMsPerRun: number | null;
  rssBaselineMb: number;
  rssPeakMb: number;
  /** The peak is the kernel's RSS high-water mark over the sweep (else sampled every 50 ms). */
  peakFromKernel: boolean;
  /** RSS once back within 10% of the baseline after the pool closed, else at AFTER_LIMIT_MS. */
  rssAfterMb: number;
  /** Wall ms from the pool closing to rssAfterMb (V8 hands freed heap back lazily). */
  afterMs: number;
}

/** How long the bench waits for the RSS to come back after the sweep. */
const AFTER_LIMIT_MS = 20_000;

/**
 * The RSS after the sweep, read every half second after a full collection until it is within
 * 10% of the baseline or AFTER_LIMIT_MS has passed. Measured: ~270 MB half a second after the
 * pool closed and 236 MB (the baseline) some seconds later, as V8 shrinks the main heap lazily.
 */
async function settledRss(baselineMb: number, since: number): Promise<{ rssMb: number; ms: number }> {
  for (;;) {
    global.gc?.();
    const rssMb = mb(process.memoryUsage().rss);
    const ms = performance.now() - since;
    if (rssMb <= baselineMb * 1.1 || ms >= AFTER_LIMIT_MS) return { rssMb, ms };
    await new Promise((r) => setTimeout(r, 500));
  }
}

const mb = (bytes: number): number => bytes / 1024 / 1024;
const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

/** The bench grid: two presets × no faults / two overloads, seeds 1..runs/4. */
function benchGrid(runs: number) {
  return SweepGridSchema.parse({
    configurations: [
      { id: 'codesmith', preset: 'codesmith' },
      { id: 'naive', preset: 'naive' },
    ],
    faultPlans: [
      { id: 'none' },
      {
        id: 'overloaded',
        plan: {
          rules: [
            {
              id: 'o',
              when: { kind: 'requests', numbers: [2, 3] },
              action: { type: 'http_error', status: 529 },
            },
          ],
        },
      },
    ],
    seeds: { from: 1, to: Math.ceil(runs / 4) },
  });
}

/** The bench sweep's jobs (`runs` of them, rounded up to whole seeds over the 4 cells). */
export function benchJobs(runs: number): SweepJob[] {
  return expandGrid(benchGrid(runs));
}

/** `recordRuns` of the sweep's own jobs, an equal share of every cell (the first seeds of each). */
export function benchSample(jobs: readonly SweepJob[], recordRuns: number): SweepJob[] {
  const perCell = Math.max(1, Math.ceil(recordRuns / 4));
  const cellSize = jobs.length / 4;
  return [0, 1, 2, 3].flatMap((cell) => jobs.slice(cell * cellSize, cell * cellSize + perCell));
}

/** Wall-clock runs a second of `work` over `items`, one after another. */
async function rate<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (const item of items) await work(item);
  return (items.length * 1000) / (performance.now() - started);
}

/**
 * The ratio, measured side by side in one process: the sweep's runs a second on
 * every core (the worker pool, runs stored in SQLite) over the runs a second of the same SDK
 * alone parsing the same recorded bytes on one core. The SDK side parses the recorded
 * exchanges of `recordRuns` of the sweep's own jobs, an equal share of every cell. Also the
 * server process's RSS (worker threads included) before, during and after the sweep.
 */
export async function measureSweepThroughput({
  runs,
  recordRuns,
}: {
  runs: number;
  recordRuns: number;
}): Promise<SweepThroughput> {
  const grid = benchGrid(runs);
  const jobs = expandGrid(grid);
  const sample = benchSample(jobs, recordRuns);

  // Warm both sides (JIT, the tokenizer's tables, the check pool) before anything is timed.
  enableCheckResultCache(); // as in a sweep worker thread
  for (const job of sample.slice(0, 4)) await runSweepJob({ sweepId: 'warm', job });
  const trajectories: Trajectory[] = [];
  for (const job of sample) trajectories.push(await recordTrajectory(job));
  for (const trajectory of trajectories) await assertSameBytes(trajectory);
  for (let i = 0; i < 3; i++) {
    await rate(trajectories, parseWithSdkAlone);
    await rate(trajectories, runSimWithSdk);
  }

  const sdkRates = [await rate(trajectories, parseWithSdkAlone), await rate(trajectories, parseWithSdkAlone)];
  const simSdkRates = [await rate(trajectories, runSimWithSdk), await rate(trajectories, runSimWithSdk)];
  const oneCpu = process.cpuUsage();
  const oneCoreRunsPerSec = await rate(sample, (job) => runSweepJob({ sweepId: 'one', job }));
  const oneCoreCpuMsPerRun = cpuMs(process.cpuUsage(oneCpu)) / sample.length;

  global.gc?.();
  const rssBaselineMb = mb(process.memoryUsage().rss);
  const dir = mkdtempSync(join(tmpdir(), 'loop-lab-bench-sweep-'));
  const runStore = createSqliteRunStore({ dir });
  const sweepStore = createSqliteSweepStore({ dir });
  const workers = defaultWorkerCount();
  let peak = rssBaselineMb;
  // From here (the stores, the bundle, the workers starting, the sweep) to the pool closed.
  const peakFromKernel = resetPeakRss();
  const sampler = setInterval(() => (peak = Math.max(peak, mb(process.memoryUsage().rss))), 50);
  try {
    let started = performance.now();
    await sweepWorkerBundle();
    const bundleMs = performance.now() - started;
    started = performance.now();
    const pool = createLocalPool({ workers });
    // Load the engine in every worker before the clock starts: one job per worker at once.
    await Promise.all(jobs.slice(0, workers).map((job) => pool.run({ sweepId: 'warm', job })));
    const workerStartMs = performance.now() - started;
    const mainCpu = mainThreadCpuMs();
    const poolCpu = process.cpuUsage();
    started = performance.now();
    const outcome = await executeSweep({ sweepId: 'bench', grid, runner: pool, runStore, sweepStore });
    if (outcome.status !== 'completed')
      throw new Error(`bench sweep ${outcome.status}: ${outcome.message ?? ''}`);
    const poolRunsPerSec = (jobs.length * 1000) / (performance.now() - started);
    const poolCpuMsPerRun = cpuMs(process.cpuUsage(poolCpu)) / jobs.length;
    const mainCpuAfter = mainThreadCpuMs();
    const mainCpuMsPerRun =
      mainCpu === null || mainCpuAfter === null ? null : (mainCpuAfter - mainCpu) / jobs.length;
    if (peakFromKernel) peak = Math.max(peak, peakRssMb() ?? 0);
    await pool.close();
    clearInterval(sampler);
    await runStore.close();
    await sweepStore.close();
    rmSync(dir, { recursive: true, force: true });
    const closedAt = performance.now();
    sdkRates.push(await rate(trajectories, parseWithSdkAlone), await rate(trajectories, parseWithSdkAlone));
    simSdkRates.push(await rate(trajectories, runSimWithSdk), await rate(trajectories, runSimWithSdk));
    const after = await settledRss(rssBaselineMb, closedAt);
    return {
      workers,
      runs: jobs.length,
      recorded: trajectories.length,
      exchangesPerRun: trajectories.reduce((n, t) => n + t.exchanges.length, 0) / trajectories.length,
      sdkRunsPerSec: median(sdkRates),
      simSdkRunsPerSec: median(simSdkRates),
      oneCoreRunsPerSec,
      poolRunsPerSec,
      bundleMs,
      workerStartMs,
      oneCoreCpuMsPerRun,
      poolCpuMsPerRun,
      mainCpuMsPerRun,
      rssBaselineMb,
      rssPeakMb: peak,
      peakFromKernel,
      rssAfterMb: after.rssMb,
      afterMs: after.ms,
    };
  } finally {
    clearInterval(sampler);
  }
}
