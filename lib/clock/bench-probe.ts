/**
 * Opt-in figures for `npm run bench`, off unless the server switched them on because it was started
 * with LOOP_LAB_BENCH_DIAGNOSTICS=1 (the load bench starts `next start` so): how late each stream
 * watchdog fired after its deadline, in wall milliseconds. Never part of a run's events, never
 * shown by the app; read only through GET /api/bench-diagnostics, which exists only then. On
 * globalThis so the engine and every route bundle of one process share one list.
 */
interface BenchProbe {
  watchdogLateWallMs: number[];
}

const globalForProbe = globalThis as typeof globalThis & { __loopLabBenchProbe?: BenchProbe };

/** The probe when the bench asked for it, otherwise undefined (and nothing is recorded). */
export function benchProbe(): BenchProbe | undefined {
  return globalForProbe.__loopLabBenchProbe;
}

/** Switches the probe on for this process or thread (the server does, when its environment asks). */
export function enableBenchProbe(): BenchProbe {
  globalForProbe.__loopLabBenchProbe ??= { watchdogLateWallMs: [] };
  return globalForProbe.__loopLabBenchProbe;
}
