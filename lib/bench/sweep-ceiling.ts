import { PerformanceObserver } from 'node:perf_hooks';
import { runSweepJob } from '@/lib/sweeps/run-sweep-job';
import { enableCheckResultCache } from '@/lib/tools/check/check-result-cache';
import type { SweepJob } from '@/lib/sweeps/expand-grid';
import { parseWithSdkAlone, recordTrajectory, type Trajectory } from './record-trajectory';
import { mainThreadCpuMs } from './proc-memory';
import { assertSameBytes, runSimAlone, runSimWithSdk } from './sim-sdk-ceiling';
import { median } from './stats';

/** One layer's cost a run, on one core: medians over alternating rounds. */
export interface LayerCost {
  runsPerSec: number;
  /** CPU ms a run, every thread of the process (V8's helper threads included). */
  cpuMs: number;
  /** CPU ms a run of the main thread alone (kernel ticks of 10 ms, summed over a round); null off Linux. */
  mainCpuMs: number | null;
  /** Wall ms a run the main thread spent paused in garbage collection (perf_hooks 'gc' entries). */
  gcMs: number;
}

export interface SweepCeiling {
  cores: number;
  runs: number;
  sdk: LayerCost;
  /** The simulated vendor alone, its answers drained by a plain reader (no SDK). */
  sim: LayerCost;
  simSdk: LayerCost;
  whole: LayerCost;
  /** cores × simSdk runs/s: the sweep's ceiling, its runs' vendor + SDK work with a free engine, tools and store and perfect scaling. */
  ceilingRunsPerSec: number;
}

type Phase = 'sdk' | 'sim' | 'simSdk' | 'whole';

/**
 * Where a sweep run's CPU goes, measured on one core in this process, and the sweep's
 * ceiling (the runs a second no engine could beat here): rounds of (1) the bare SDK over the recorded bytes, (2) the
 * run's own simulated vendor producing those bytes for the recorded request bodies, read by
 * a plain reader, (3) the same plus the SDK parsing them, (4) the whole run as a sweep worker
 * runs it — alternated, so load moves all four alike. Before timing, every recorded response is produced again and
 * compared byte for byte (a hard failure if one differs): (2) is the same work the run did.
 */
export async function measureSweepCeiling({
  sample,
  cores,
  rounds,
}: {
  sample: readonly SweepJob[];
  cores: number;
  rounds: number;
}): Promise<SweepCeiling> {
  // Warm the whole runtime first (JIT, tokenizer tables, the check pool), then record.
  enableCheckResultCache(); // as in a sweep worker thread
  for (const job of sample.slice(0, 4)) await runSweepJob({ sweepId: 'warm', job });
  const trajectories: Trajectory[] = [];
  for (const job of sample) trajectories.push(await recordTrajectory(job));
  for (const trajectory of trajectories) await assertSameBytes(trajectory);

  const windows: { phase: Phase; from: number; to: number }[] = [];
  const gcEntries: { at: number; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcEntries.push({ at: entry.startTime, ms: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });

  const phases: Record<Phase, () => Promise<void>> = {
    sdk: async () => {
      for (const t of trajectories) await parseWithSdkAlone(t);
    },
    sim: async () => {
      for (const t of trajectories) await runSimAlone(t);
    },
    simSdk: async () => {
      for (const t of trajectories) await runSimWithSdk(t);
    },
    whole: async () => {
      for (const job of sample) await runSweepJob({ sweepId: 'ceiling', job });
    },
  };
  const samples: Record<Phase, { wall: number[]; cpu: number[]; main: (number | null)[] }> = {
    sdk: { wall: [], cpu: [], main: [] },
    sim: { wall: [], cpu: [], main: [] },
    simSdk: { wall: [], cpu: [], main: [] },
    whole: { wall: [], cpu: [], main: [] },
  };
  const order: Phase[] = ['sdk', 'sim', 'simSdk', 'whole'];
  for (const phase of order) await phases[phase]();
  for (let round = 0; round < rounds; round++) {
    for (const phase of round % 2 === 0 ? order : [...order].reverse()) {
      const main = mainThreadCpuMs();
      const cpu = process.cpuUsage();
      const from = performance.now();
      await phases[phase]();
      const to = performance.now();
      const used = process.cpuUsage(cpu);
      const mainAfter = mainThreadCpuMs();
      windows.push({ phase, from, to });
      samples[phase].wall.push((to - from) / sample.length);
      samples[phase].cpu.push((used.user + used.system) / 1000 / sample.length);
      samples[phase].main.push(
        main === null || mainAfter === null ? null : (mainAfter - main) / sample.length,
      );
    }
  }
  // GC entries arrive after the fact: let the observer deliver the last ones.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();

  const cost = (phase: Phase): LayerCost => {
    const mine = windows.filter((w) => w.phase === phase);
    const gc = gcEntries
      .filter((e) => mine.some((w) => e.at >= w.from && e.at < w.to))
      .reduce((sum, e) => sum + e.ms, 0);
    const main = samples[phase].main;
    return {
      runsPerSec: 1000 / median(samples[phase].wall),
      cpuMs: median(samples[phase].cpu),
      mainCpuMs: main.every((m) => m !== null) ? median(main as number[]) : null,
      gcMs: gc / (mine.length * sample.length),
    };
  };
  const sdk = cost('sdk');
  const sim = cost('sim');
  const simSdk = cost('simSdk');
  const whole = cost('whole');
  return {
    cores,
    runs: sample.length,
    sdk,
    sim,
    simSdk,
    whole,
    ceilingRunsPerSec: cores * simSdk.runsPerSec,
  };
}
