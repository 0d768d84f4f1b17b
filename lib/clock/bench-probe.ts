/**
 * Opt-in figures for `npm run bench`, off unless the server switched them on because it was started
 * with LOOP_LAB_BENCH_DIAGNOSTICS=1 (the load bench starts `next start` so): how late each stream
 * watchdog fired after its deadline, in wall milliseconds. Never part of a run's events, never
 * shown by the app; read only through GET /api/bench-diagnostics, which exists only then. On
 * globalThis so every route bundle of one server process shares one list; the engine never reads
 * it: the server hands each run the probe (watchdogProbe) through its launch options.
 */
interface BenchProbe {
  watchdogLateWallMs: number[];
  /** Each of those firings' deadline, as epoch ms (performance.timeOrigin + now − lateness): deadlines that fall due together. */
  watchdogDueAtMs: number[];
  /** A bare 20 ms timer on each run thread, armed while the thread has runs: how late each firing was, wall ms. */
  runThreadTimerLateWallMs: number[];
}

const globalForProbe = globalThis as typeof globalThis & { __loopLabBenchProbe?: BenchProbe };

/** The probe when the bench asked for it, otherwise undefined (and nothing is recorded). */
export function benchProbe(): BenchProbe | undefined {
  return globalForProbe.__loopLabBenchProbe;
}

/** Switches the probe on for this process or thread (the server does, when its environment asks). */
export function enableBenchProbe(): BenchProbe {
  globalForProbe.__loopLabBenchProbe ??= {
    watchdogLateWallMs: [],
    watchdogDueAtMs: [],
    runThreadTimerLateWallMs: [],
  };
  return globalForProbe.__loopLabBenchProbe;
}

/** The probe as a run's engine takes it (EngineDeps.probe): each watchdog's lateness goes on the list. */
export function watchdogProbe(probe: BenchProbe): { watchdogFiredLate(wallMs: number): void } {
  return {
    watchdogFiredLate: (wallMs) => {
      probe.watchdogLateWallMs.push(wallMs);
      probe.watchdogDueAtMs.push(dueAt(wallMs));
    },
  };
}

/** When a watchdog that fired `lateMs` late now was due, as epoch ms (comparable across threads). */
export function dueAt(lateMs: number): number {
  return performance.timeOrigin + performance.now() - lateMs;
}
