import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SweepGridSchema } from '@/lib/protocol';
import { createSweepRegistry } from '@/lib/server/sweep-registry';
import { createSqliteRunStore, createSqliteSweepStore } from '@/lib/store';
import { createLocalPool, defaultWorkerCount } from '@/lib/sweeps/local-pool';
import { sweepWorkerBundle } from '@/lib/sweeps/worker-bundle';
import { peakRssMb, resetPeakRss } from './proc-memory';

/** One round: the sweeps posted at once, all cancelled once the first has stored runs. */
export interface ConcurrentSweepsRound {
  /** Pools the registry created for all the sweeps of the round. */
  poolsMade: number;
  /** Sweeps that were queued (not running) when the first one had stored its runs. */
  queuedAtOnce: number;
  runsDone: number;
  /** Sweeps still running or queued when the round cancelled (a sweep already over is not cancelled). */
  cancelled: number;
  rssBaselineMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  threadsBaseline: number | null;
  threadsAfter: number | null;
}

export interface ConcurrentSweeps {
  sweeps: number;
  runsEach: number;
  workers: number;
  afterMs: number;
  /** The first round (in a fresh process when called alone; after the throughput sweep in `npm run bench`). */
  first: ConcurrentSweepsRound;
  /** The same again: a server that has done this before. */
  second: ConcurrentSweepsRound;
}

const MB = 1024 * 1024;

function osThreads(): number | null {
  try {
    return Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]);
  } catch {
    return null;
  }
}

async function settledRssMb(ms: number): Promise<number> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 500));
  }
  globalThis.gc?.();
  return process.memoryUsage.rss() / MB;
}

/**
 * Many large sweeps posted at once to one process's sweep registry, all cancelled once the first
 * has stored `runFor` runs (default a tenth of its runs, at most 100), or has ended, if it is that small: how many pools they got, the process's RSS and threads before, at the
 * peak and after (full collections every 0.5 s), with the stores on a temporary data folder.
 * Two rounds: the first may keep some memory the process reuses later (in a fresh process,
 * measured −2 to +14 MB over three runs), the second shows whether cancelling gives back what a
 * round took; each is held to 10 % of its own baseline.
 */
export async function measureConcurrentSweeps({
  sweeps = 8,
  runsEach = 1000,
  runFor = Math.max(1, Math.min(100, Math.floor(runsEach / 10))),
  afterMs = 5_000,
} = {}): Promise<ConcurrentSweeps> {
  const until = Math.min(runFor, runsEach);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-bench-sweeps-'));
  const runStore = createSqliteRunStore({ dir });
  const sweepStore = createSqliteSweepStore({ dir });
  const workers = defaultWorkerCount();
  let poolsMade = 0;
  try {
    await sweepWorkerBundle();
    const registry = createSweepRegistry({
      runStore,
      sweepStore,
      runnerKind: 'local',
      createRunner: async () => {
        poolsMade += 1;
        return createLocalPool({ workers });
      },
    });
    const grid = SweepGridSchema.parse({
      configurations: [{ id: 'codesmith', preset: 'codesmith' }],
      seeds: { from: 1, to: runsEach },
    });
    const round = async (): Promise<ConcurrentSweepsRound> => {
      poolsMade = 0;
      const rssBaselineMb = await settledRssMb(2_000);
      const threadsBaseline = osThreads();
      const fromKernel = resetPeakRss();
      let sampledPeak = process.memoryUsage.rss() / MB;
      const sampler = setInterval(
        () => (sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss() / MB)),
        50,
      );
      const ids: string[] = [];
      for (let i = 0; i < sweeps; i += 1) ids.push((await registry.start(grid)).id);
      const status = async (id: string) => (await registry.read(id))?.sweep.status;
      const live = async (id: string) => {
        const now = await status(id);
        return now === 'running' || now === 'queued';
      };
      while ((await live(ids[0]!)) && ((await registry.read(ids[0]!))?.sweep.done ?? 0) < until)
        await new Promise((r) => setTimeout(r, 100));
      const queuedAtOnce = (await Promise.all(ids.map(status))).filter((s) => s === 'queued').length;
      // Only sweeps still running or queued: one that is over (a small sweep can finish between
      // two looks) is refused with 409, and one that ends between the look and the cancel is not counted.
      let cancelled = 0;
      for (const id of ids) {
        if (!(await live(id))) continue;
        cancelled += await registry.cancel(id).then(
          () => 1,
          async (error: unknown) => {
            if (await live(id)) throw error;
            return 0;
          },
        );
      }
      await Promise.all(ids.map((id) => registry.whenFinished(id)));
      let runsDone = 0;
      for (const id of ids) runsDone += (await sweepStore.getSweep(id))?.summary.done ?? 0;
      clearInterval(sampler);
      const rssPeakMb = fromKernel ? (peakRssMb() ?? sampledPeak) : sampledPeak;
      const rssAfterMb = await settledRssMb(afterMs);
      return {
        poolsMade,
        queuedAtOnce,
        runsDone,
        cancelled,
        rssBaselineMb,
        rssPeakMb,
        rssAfterMb,
        threadsBaseline,
        threadsAfter: osThreads(),
      };
    };
    const first = await round();
    const second = await round();
    return { sweeps, runsEach, workers, afterMs, first, second };
  } finally {
    await runStore.close();
    await sweepStore.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
