import type { LoadFigures } from './load';
import { percentile } from './stats';

/** The load bench's targets, and its figures judged and described against them (lib/bench/load.ts measures them). */

/**
 * The four targets of the load bench. The POSTs are held to the floor the same client measures in
 * the same run — the same burst to a Next route that does nothing — since Next's own per-request
 * cost on two cores is already over 500 ms for 100 at once.
 */
export const LOAD_TARGETS = { watchdogLateP99Ms: 50, loopDelayP99Ms: 50, postP95OverFloor: 1.5 } as const;

/**
 * The four figures the targets are set on, each with its target, whether it is met, and the floor
 * measured beside it in the same run (what the figure cannot go under on this machine, now).
 */
export function loadTargets(
  f: LoadFigures,
): Array<{ name: string; value: string; target: string; met: boolean; floor?: string }> {
  const late = percentile(f.server.watchdogLateWallMs, 99);
  const bare = f.server.bareTimerLateWallMs;
  const onRunThreads = f.server.runThreadTimerLateWallMs;
  const post = percentile(f.postMs, 95);
  const floor = percentile(f.floorPostMs, 95);
  const lost = f.lost + f.gappedRuns;
  const perPost = (cpu: number | undefined): string =>
    cpu === undefined ? '?' : `${(cpu / f.runs).toFixed(1)} ms`;
  return [
    {
      name: 'watchdog fired after its deadline, p99',
      value: `${late.toFixed(1)} ms`,
      target: `≤ ${LOAD_TARGETS.watchdogLateP99Ms} ms`,
      met: late <= LOAD_TARGETS.watchdogLateP99Ms,
      ...(bare.length > 0
        ? {
            floor:
              `a bare 20 ms timer on an idle thread of the same process, beside the load: p99 ${percentile(bare, 99).toFixed(1)} ms, max ${Math.max(...bare).toFixed(1)} ms (${bare.length} firings)` +
              (onRunThreads.length > 0
                ? `; the same timer on the run threads, beside their runs: p99 ${percentile(onRunThreads, 99).toFixed(1)} ms, max ${Math.max(...onRunThreads).toFixed(1)} ms (${onRunThreads.length} firings)`
                : '') +
              `; at most ${mostWithin(f.server.watchdogDueAtMs, 50)} watchdogs fell due within 50 ms of each other (every run is the same lesson side on the same seed, so their stalls come together, and on its thread each firing waits for the recoveries of those before it)`,
          }
        : {}),
    },
    {
      name: 'main thread event-loop delay, p99',
      value: `${f.server.loopDelay.p99.toFixed(1)} ms`,
      target: `≤ ${LOAD_TARGETS.loopDelayP99Ms} ms`,
      met: f.server.loopDelay.p99 <= LOAD_TARGETS.loopDelayP99Ms,
    },
    {
      name: `${f.runs} simultaneous POSTs answered, p95`,
      value: `${post.toFixed(0)} ms (${(post / floor).toFixed(2)} × the floor's ${floor.toFixed(0)} ms)`,
      target: `≤ ${LOAD_TARGETS.postP95OverFloor} × the same burst to a Next route that does nothing`,
      met: post <= LOAD_TARGETS.postP95OverFloor * floor,
      floor:
        `main-thread CPU a POST: ${perPost(f.postBurstCpuMs)} here (validate, store, ${f.runThreads === '0' ? 'start the run on this thread' : 'hand to a run thread'}, and the events of the runs already started), ${perPost(f.floorBurstCpuMs)} for the route that does nothing; ` +
        `the server's other threads (${f.runThreads === '0' ? "no run threads: V8's and libuv's helpers" : "run threads starting their runs, V8's and libuv's helpers"}) took ${coresOf(f.postBurstOtherCpuMs, f.postBurstWallMs)} until the last POST was answered, ${coresOf(f.floorBurstOtherCpuMs, f.floorBurstWallMs)} in the floor's burst`,
    },
    {
      name: 'events lost (and runs with a gap)',
      value: `${f.lost} (${f.gappedRuns})`,
      target: '0',
      met: lost === 0,
    },
  ];
}

/** "0.42 s of CPU in 0.80 s (0.53 of a core)": CPU over a wall window. */
function coresOf(cpuMs: number | undefined, wallMs: number): string {
  if (cpuMs === undefined) return '? s of CPU';
  return `${(cpuMs / 1000).toFixed(2)} s of CPU in ${(wallMs / 1000).toFixed(2)} s (${(cpuMs / Math.max(wallMs, 1)).toFixed(2)} of a core)`;
}

/**
 * What a pass's time scale means for the figures: at 1 each run keeps the real clock's pace,
 * the target's case; below 1 every wait of every run is shortened, so the same runs put their
 * deadlines and their work that much closer together — a harder load than the target's.
 */
export function describePace(f: Pick<LoadFigures, 'runs' | 'timeScale'>): string {
  if (f.timeScale === 1) return "time scale 1: every run at the real clock's pace, as the target is set";
  const times = 1 / f.timeScale;
  const faster = Number.isInteger(times) ? String(times) : times.toFixed(1);
  return f.timeScale < 1
    ? `time scale ${f.timeScale}: each run's clock ${faster}× faster than the wall, so ${f.runs} runs put the deadlines and work of ${Math.round(f.runs * times).toLocaleString('en-US')} real-clock runs into the same wall time — harder than the target, which is set on real-clock runs`
    : `time scale ${f.timeScale}: each run's clock ${f.timeScale}× slower than the wall — easier than the target`;
}

/** The most values within any window of `windowMs` (values in ms). */
export function mostWithin(values: readonly number[], windowMs: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end += 1) {
    while (sorted[end]! - sorted[start]! > windowMs) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** `floors: 'always'`: each figure's floor even when the figure is met (the stress pass's). */
export function describeLoad(
  f: LoadFigures,
  { floors = 'missed' }: { floors?: 'missed' | 'always' } = {},
): string {
  const ms = (n: number): string => `${n.toFixed(0)} ms`;
  const late = f.server.watchdogLateWallMs;
  return (
    loadTargets(f)
      .map(
        (t) =>
          `${t.met ? 'met ' : 'MISS'}  ${t.name}: ${t.value} (target ${t.target})` +
          (t.floor && (!t.met || floors === 'always') ? `\n              floor: ${t.floor}` : ''),
      )
      .join('\n      ') +
    '\n      ' +
    `${f.runThreads === '0' ? 'every run on the main thread (LOOP_LAB_RUN_THREADS=0)' : f.runThreads === 'default' ? 'the default configuration (LOOP_LAB_RUN_THREADS unset: two run threads)' : `runs on run threads (LOOP_LAB_RUN_THREADS ${f.runThreads})`}: ` +
    `${f.runs} runs POSTed at once (${describePace(f)}), all ended ${(f.wallMs / 1000).toFixed(1)} s later; load average ${f.loadBefore.map((n) => n.toFixed(2)).join(' ')} before the server started (the machine), ${f.server.loadAverage.map((n) => n.toFixed(2)).join(' ')} at the end (with the bench's own server, runs and clients)\n` +
    `      POST answered: p50 ${ms(percentile(f.postMs, 50))}, p95 ${ms(percentile(f.postMs, 95))}, max ${ms(Math.max(...f.postMs))}; ` +
    `the floors under it, ${f.runs} POSTs at once from the same client: to a Next route that does nothing p50 ${ms(percentile(f.floorPostMs, 50))}, ` +
    `p95 ${ms(percentile(f.floorPostMs, 95))}; to a plain node:http server p50 ${ms(percentile(f.plainPostMs, 50))}, p95 ${ms(percentile(f.plainPostMs, 95))}\n` +
    `      watchdog fired after its deadline (wall): p50 ${percentile(late, 50).toFixed(1)} ms, p99 ${percentile(late, 99).toFixed(1)} ms, max ${Math.max(...late).toFixed(1)} ms ` +
    `(${late.length} firings; ${f.watchdogEvents} watchdog_fired events stored)\n` +
    `      main thread event-loop delay: p50 ${f.server.loopDelay.p50.toFixed(1)} ms, p99 ${f.server.loopDelay.p99.toFixed(1)} ms, max ${f.server.loopDelay.max.toFixed(1)} ms\n` +
    `      events: ${f.eventsReceived} received by the SSE clients, ${f.eventsStored} stored; ${f.lost} lost, ${f.gappedRuns} runs with a gap or repeat; ${f.reconnects} dropped streams resumed\n` +
    `      server process CPU ${(f.server.cpuMs / f.server.wallMs).toFixed(2)} of a core over the load, RSS ${f.server.rssMb.toFixed(0)} MB` +
    `${f.mainThreadCpuMs === undefined ? '' : `; main thread CPU ${(f.mainThreadCpuMs / 1000).toFixed(1)} s (${(f.mainThreadCpuMs / f.runs).toFixed(1)} ms a run), ${((f.postBurstCpuMs ?? 0) / 1000).toFixed(2)} s of it until the last POST was answered`}\n` +
    `      (build ${f.built ? 'made now' : `${f.buildAgeMin.toFixed(0)} min old, reused; BENCH_REBUILD=1 builds the code as it is`})`
  );
}
