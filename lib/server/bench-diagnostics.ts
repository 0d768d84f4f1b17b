import 'server-only';
import os from 'node:os';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { benchProbe, enableBenchProbe } from '@/lib/clock/bench-probe';
import { serverEnv } from '@/lib/config/server-env';

/**
 * What the load bench reads from a running server, only when it was started with
 * LOOP_LAB_BENCH_DIAGNOSTICS=1: this thread's event-loop delay since the last reset, and how
 * late each stream watchdog fired (lib/clock/bench-probe.ts). Never shown by the app.
 */
export interface BenchDiagnostics {
  /** Event-loop delay of the server's main thread, in ms (monitorEventLoopDelay, 10 ms resolution). */
  loopDelay: { p50: number; p99: number; max: number; samples: number };
  /** Each stream watchdog firing since the last reset: fire time minus deadline, wall ms. */
  watchdogLateWallMs: number[];
  /**
   * The floor under the watchdog figure: a bare 20 ms timer, over and over, on a thread of this
   * process that does nothing else; how late each firing was since the last reset, wall ms. What
   * the machine's scheduling alone costs a timer while the load runs beside it.
   */
  bareTimerLateWallMs: number[];
  /** Each watchdog firing's deadline, epoch ms: how many fell due together. */
  watchdogDueAtMs: number[];
  /** The same bare timer on each run thread while it has runs (lib/run-threads/run-thread-entry.ts). */
  runThreadTimerLateWallMs: number[];
  /** CPU of the whole process since the last reset, ms (every thread). */
  cpuMs: number;
  wallMs: number;
  rssMb: number;
  loadAverage: number[];
}

interface State {
  histogram: IntervalHistogram;
  cpu: NodeJS.CpuUsage;
  since: number;
}

const globalForDiagnostics = globalThis as typeof globalThis & {
  __loopLabBenchDiagnostics?: State;
  __loopLabBareTimer?: Worker;
};

/** The bare timer's thread: it fires every 20 ms, keeps each firing's lateness, and answers 'read' and 'reset'. */
const BARE_TIMER = `
const { parentPort } = require('node:worker_threads');
const late = [];
const arm = () => {
  const due = performance.now() + 20;
  setTimeout(() => { late.push(performance.now() - due); arm(); }, 20);
};
arm();
parentPort.on('message', (m) => {
  if (m === 'reset') late.length = 0;
  else parentPort.postMessage(late.slice());
});
`;

function bareTimer(): Worker {
  if (!globalForDiagnostics.__loopLabBareTimer) {
    const worker = new Worker(BARE_TIMER, { eval: true });
    worker.unref();
    globalForDiagnostics.__loopLabBareTimer = worker;
  }
  return globalForDiagnostics.__loopLabBareTimer;
}

function readBareTimer(): Promise<number[]> {
  const worker = bareTimer();
  return new Promise((resolve) => {
    worker.once('message', (late: number[]) => resolve(late));
    worker.postMessage('read');
  });
}

export function benchDiagnosticsEnabled(): boolean {
  if (!serverEnv().benchDiagnostics) return false;
  enableBenchProbe();
  return true;
}

/** Starts (or restarts) the measurement: a new histogram, the watchdog list emptied. */
export function resetBenchDiagnostics(): void {
  globalForDiagnostics.__loopLabBenchDiagnostics?.histogram.disable();
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  globalForDiagnostics.__loopLabBenchDiagnostics = {
    histogram,
    cpu: process.cpuUsage(),
    since: performance.now(),
  };
  const probe = benchProbe();
  if (probe) {
    probe.watchdogLateWallMs.length = 0;
    probe.watchdogDueAtMs.length = 0;
    probe.runThreadTimerLateWallMs.length = 0;
  }
  bareTimer().postMessage('reset');
}

export async function readBenchDiagnostics(): Promise<BenchDiagnostics> {
  if (!globalForDiagnostics.__loopLabBenchDiagnostics) resetBenchDiagnostics();
  const { histogram, cpu, since } = globalForDiagnostics.__loopLabBenchDiagnostics!;
  const used = process.cpuUsage(cpu);
  const ms = (ns: number): number => ns / 1e6;
  return {
    loopDelay: {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      samples: histogram.count,
    },
    watchdogLateWallMs: [...(benchProbe()?.watchdogLateWallMs ?? [])],
    bareTimerLateWallMs: await readBareTimer(),
    runThreadTimerLateWallMs: [...(benchProbe()?.runThreadTimerLateWallMs ?? [])],
    watchdogDueAtMs: [...(benchProbe()?.watchdogDueAtMs ?? [])],
    cpuMs: (used.user + used.system) / 1000,
    wallMs: performance.now() - since,
    rssMb: process.memoryUsage.rss() / 2 ** 20,
    loadAverage: os.loadavg(),
  };
}
