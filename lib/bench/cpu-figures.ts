import { defaultWorkerCount } from '@/lib/sweeps/local-pool';
import { VENDOR_AND_SDK, type CpuOwners } from './cpu-owners';
import { report } from './report';
import { runBundled } from './run-bundled';
import type { SweepCeiling } from './sweep-ceiling';
import type { SweepThroughput } from './sweep-throughput';

/** The sweep target: the sweep's runs a second ÷ its ceiling (the same runs' vendor + SDK work alone, on the same threads). */
export const SWEEP_TARGET = 0.6;

/**
 * The sweep against its ceiling: the same runs' simulated vendor + SDK work with no engine,
 * tools or store, on as many threads as the pool has (one core's rate × workers). With a sweep
 * measured (`sweep`), the target is the pool's runs a second over that rate as measured around
 * the sweep; alone (BENCH_ONLY=ceiling; BENCH_CEILING_ROUNDS, default 9) it is the same on one
 * core, bundled as a sweep worker runs: whole runs a second over vendor + SDK runs a second.
 * Also where a sweep run's CPU goes, layer by layer, on one core (bundled).
 */
export async function ceilingFigures(sweep?: SweepThroughput): Promise<void> {
  const cores = defaultWorkerCount();
  // Bundled, in a process of its own: the code runs as a sweep worker runs it (no tsx).
  const printed = await runBundled({
    entry: 'lib/bench/sweep-ceiling-entry.ts',
    env: {
      BENCH_CEILING_CORES: String(cores),
      BENCH_SWEEP_RUNS: process.env.BENCH_SWEEP_RUNS ?? '1000',
      BENCH_CEILING_ROUNDS: process.env.BENCH_CEILING_ROUNDS ?? '9',
    },
  });
  const c = JSON.parse(printed.trim().split('\n').at(-1)!) as SweepCeiling;
  const ms = (n: number): string => `${n.toFixed(2)} ms`;
  const main = (n: number | null): string => (n === null ? 'not measured off Linux' : ms(n));
  // With a sweep, its ceiling is measured at the same moment, in its own process around the
  // sweep (the machine's load moves both alike); the bundled figure is printed beside it.
  const ceilingRunsPerSec = sweep ? sweep.workers * sweep.simSdkRunsPerSec : c.ceilingRunsPerSec;
  const oneCore = c.whole.runsPerSec / c.simSdk.runsPerSec;
  const oneCoreCpu = c.simSdk.cpuMs / c.whole.cpuMs;
  const ratio = sweep ? sweep.poolRunsPerSec / ceilingRunsPerSec : oneCore;
  report(
    sweep
      ? `sweep throughput ÷ its ceiling: the ${sweep.runs}-run sweep on ${sweep.workers} worker threads ÷ ${sweep.workers} × the same runs' simulated vendor + SDK alone on one core (no engine, tools or store), measured just before and after the sweep`
      : `sweep throughput ÷ its ceiling, on one core: whole runs as a sweep worker runs them ÷ the same runs' simulated vendor + SDK alone (no engine, tools or store)`,
    (sweep
      ? `${sweep.poolRunsPerSec.toFixed(1)} runs/s on the pool vs a ceiling of ${ceilingRunsPerSec.toFixed(1)} runs/s (${sweep.workers} × ${sweep.simSdkRunsPerSec.toFixed(1)}): ${ratio.toFixed(2)}; ` +
        `bundled, later: ${cores} × ${c.simSdk.runsPerSec.toFixed(1)} runs/s; `
      : `${c.whole.runsPerSec.toFixed(1)} vs ${c.simSdk.runsPerSec.toFixed(1)} runs/s: ${ratio.toFixed(2)}; `) +
      `on one core ${oneCore.toFixed(2)} by wall time, ${oneCoreCpu.toFixed(2)} by CPU (vendor + SDK ${ms(c.simSdk.cpuMs)} a run, whole run ${ms(c.whole.cpuMs)}; ` +
      `${SWEEP_TARGET} needs the whole run ≤ ${ms(c.simSdk.cpuMs / SWEEP_TARGET)}) over ${c.runs} of the sweep's runs\n` +
      `      CPU a run on one core (every thread; main thread alone; GC pauses on the main thread):\n` +
      `        SDK alone on the recorded bytes:             ${ms(c.sdk.cpuMs)}; ${main(c.sdk.mainCpuMs)}; GC ${ms(c.sdk.gcMs)}  (${c.sdk.runsPerSec.toFixed(1)} runs/s)\n` +
      `        simulated vendor alone (a plain reader):     ${ms(c.sim.cpuMs)}; ${main(c.sim.mainCpuMs)}; GC ${ms(c.sim.gcMs)}  (${c.sim.runsPerSec.toFixed(1)} runs/s)\n` +
      `        simulated vendor + SDK (no engine):          ${ms(c.simSdk.cpuMs)}; ${main(c.simSdk.mainCpuMs)}; GC ${ms(c.simSdk.gcMs)}  (${c.simSdk.runsPerSec.toFixed(1)} runs/s)\n` +
      `        whole run (engine, tools, check, log):       ${ms(c.whole.cpuMs)}; ${main(c.whole.mainCpuMs)}; GC ${ms(c.whole.gcMs)}  (${c.whole.runsPerSec.toFixed(1)} runs/s)\n` +
      `      so the simulated vendor costs ${ms(c.simSdk.cpuMs - c.sdk.cpuMs)} a run beside the SDK (${ms(c.sim.cpuMs)} alone) and the engine, tools and log ` +
      `${ms(c.whole.cpuMs - c.simSdk.cpuMs)} (whole run minus vendor + SDK); every response the simulated vendor produced equals the run's recorded bytes`,
    ratio >= SWEEP_TARGET,
    `target ≥ ${SWEEP_TARGET}`,
  );
}

/**
 * Where the engine's and a sweep run's CPU goes, by layer (BENCH_ONLY=owners; BENCH_OWNER_RUNS,
 * default 40): V8's sampling profiler in a bundled process, each sample charged to the nearest
 * frame of ours on its stack (lib/bench/cpu-owners.ts). The profiler samples wall time, so on a
 * loaded machine read the shares, not the milliseconds.
 */
export async function ownerFigures(): Promise<void> {
  const printed = await runBundled({
    entry: 'lib/bench/cpu-owners-entry.ts',
    env: { BENCH_OWNER_RUNS: process.env.BENCH_OWNER_RUNS ?? '40' },
  });
  const { engine, sdk, sweep } = JSON.parse(printed.trim().split('\n').at(-1)!) as Record<
    'engine' | 'sdk' | 'sweep',
    CpuOwners
  >;
  const pct = (share: number): string => `${(share * 100).toFixed(1)} %`.padStart(7);
  const sdkMs = new Map(sdk.owners.map((o) => [o.owner, o.msPerRun]));
  const engineLines = engine.owners
    .filter((o) => o.share >= 0.005)
    .map(
      (o) =>
        `        ${pct(o.share)}  ${o.owner.padEnd(52)} ${o.msPerRun.toFixed(1).padStart(7)} ms a run (bare SDK run: ${(sdkMs.get(o.owner) ?? 0).toFixed(1)})`,
    );
  const vendorSide = sweep.owners.filter((o) => VENDOR_AND_SDK.has(o.owner)).reduce((n, o) => n + o.share, 0);
  const shared = sweep.owners.filter((o) => o.owner.startsWith('(')).reduce((n, o) => n + o.share, 0);
  const sweepLines = sweep.owners
    .filter((o) => o.share >= 0.005)
    .map((o) => `        ${pct(o.share)}  ${o.owner}`);
  console.log(
    `INFO  where the CPU goes, by layer (sampled, each sample charged to the nearest frame of ours on its stack; bundled)\n` +
      `      the engine bench's run (${engine.busyMsPerRun.toFixed(1)} ms a run sampled) beside the bare SDK on the same bytes (${sdk.busyMsPerRun.toFixed(1)} ms):\n` +
      `${engineLines.join('\n')}\n` +
      `      a sweep run as a worker runs it (${sweep.runs} runs, ${sweep.busyMsPerRun.toFixed(1)} ms a run sampled): the simulated vendor and SDK ${pct(vendorSide).trim()}, ` +
      `GC, V8 and callbacks of no layer ${pct(shared).trim()}, the engine side (engine, tools, runtime, log, protocol…) ${pct(1 - vendorSide - shared).trim()}\n` +
      `${sweepLines.join('\n')}\n`,
  );
}
