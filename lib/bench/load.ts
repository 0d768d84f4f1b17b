import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lessonRunConfig, LESSONS } from '@/lib/lessons';
import type { BenchDiagnostics } from '@/lib/server/bench-diagnostics';
import { startNextServer } from './next-server';
import { percentile } from './stats';

/**
 * Many real-clock runs at once in one `next start`, each watched by its own SSE client: the
 * watchdog lesson's "on" side (two silent streams the watchdog must cut, then a normal run),
 * POSTed all at once. Measured from outside (POST latency, events received against events
 * stored) and from inside, through the server's opt-in diagnostics (LOOP_LAB_BENCH_DIAGNOSTICS=1,
 * GET /api/bench-diagnostics): how late each watchdog fired after its deadline, and the main
 * thread's event-loop delay over the whole load.
 */
export interface LoadFigures {
  /** Where the runs ran: LOOP_LAB_RUN_THREADS as the server was started with it. */
  runThreads: string;
  runs: number;
  timeScale: number;
  postMs: number[];
  /**
   * The same number of simultaneous POSTs, just before, to a route that does nothing (the bench
   * diagnostics reset: no body read, no store, no run): what Next's own per-request path costs
   * this machine, the floor under the POST figure.
   */
  floorPostMs: number[];
  /**
   * The same burst to a plain `node:http` server in a process of its own that answers 204 at
   * once: what this client, the loopback and the machine cost before any framework.
   */
  plainPostMs: number[];
  /** Wall ms from the POSTs to the last terminate received. */
  wallMs: number;
  eventsReceived: number;
  eventsStored: number;
  /** Stored events a client never received, and runs whose received seqs were not 0..n contiguous. */
  lost: number;
  gappedRuns: number;
  /** SSE connections that dropped and were resumed with Last-Event-ID. */
  reconnects: number;
  watchdogEvents: number;
  server: BenchDiagnostics;
  /**
   * CPU the server's main thread used from the POSTs to the last terminate, ms (Linux, from
   * /proc; undefined elsewhere): the work the load put on the thread that answers every request,
   * which a busy machine does not inflate the way it does wall times.
   */
  mainThreadCpuMs: number | undefined;
  /** The same from the POSTs to the last POST answered: the burst every answer waits behind. */
  postBurstCpuMs: number | undefined;
  /** The main thread's CPU for the floor's burst (100 POSTs to the route that does nothing), ms. */
  floorBurstCpuMs: number | undefined;
  /** Wall ms from the POSTs to the last one answered, and the same for the floor's burst. */
  postBurstWallMs: number;
  floorBurstWallMs: number;
  /**
   * CPU the server's other threads (its run threads starting their runs, V8's and libuv's
   * helpers) used over the same two windows, ms (Linux, from /proc): on two cores, what they take
   * is a core the main thread, which answers every POST, does not have.
   */
  postBurstOtherCpuMs: number | undefined;
  floorBurstOtherCpuMs: number | undefined;
  /** The machine's load average (1, 5, 15 min) before the server started: the load the bench did not make. */
  loadBefore: number[];
  buildAgeMin: number;
  built: boolean;
}

const SLUG = 'stream-idle-watchdog';

/**
 * The time scale of the one run played before the load: it is there for the server's one-time
 * costs (route compilation, the threads' warm-up), which do not depend on the run's pace, so it
 * need not take the 4.6 minutes the lesson's "on" side takes at the real clock's.
 */
const WARM_UP_SCALE = 0.01;

/**
 * `runThreads`: the server's LOOP_LAB_RUN_THREADS ('0': every run on the main thread, as before
 * run threads; 'default': one a core). BENCH_LOAD_PROFILE=<dir>: the server writes V8 CPU
 * profiles there (one a thread) when it stops.
 */
export async function measureLoad({
  runs,
  timeScale,
  runThreads,
}: {
  runs: number;
  timeScale: number;
  runThreads: string;
}): Promise<LoadFigures> {
  const root = process.cwd();
  const { built, buildAgeMin } = ensureBuild(root);
  const loadBefore = os.loadavg();
  const profile = process.env.BENCH_LOAD_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_LOAD_PROFILE)}`]
    : [];
  const server = await startNextServer({
    root,
    prefix: 'loop-lab-bench-load-',
    nodeArgs: profile,
    env: (env) => {
      const out: NodeJS.ProcessEnv = { ...env, LOOP_LAB_BENCH_DIAGNOSTICS: '1' };
      if (runThreads === 'default') delete out.LOOP_LAB_RUN_THREADS;
      else out.LOOP_LAB_RUN_THREADS = runThreads;
      return out;
    },
  });
  const { base } = server;
  try {
    const lesson = LESSONS.find((l) => l.slug === SLUG)!;
    const side = lessonRunConfig(lesson, 'on', { clock: 'real', timeScale });
    // The lesson's time budget (8 min of run time) ends a run starved of CPU early; the load should not.
    const config = { ...side, budgets: { ...side.budgets, maxRunMs: 86_400_000 } };
    // One run first, to its end: the server's one-time costs (route compilation, warm-up) are not load.
    const warmUp = { ...config, timeScale: Math.min(timeScale, WARM_UP_SCALE) };
    await watch(base, (await post(base, warmUp)).id, { reconnects: 0 });
    const reset = await fetch(`${base}/api/bench-diagnostics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    if (reset.status !== 204)
      throw new Error(
        `the server has no bench diagnostics (${reset.status}); is the build older than lib/bench/load.ts?`,
      );
    const floorCpuBefore = threadsCpuMs(server.pid);
    const floorStarted = performance.now();
    const floorPostMs = await Promise.all(
      Array.from({ length: runs }, () => timedPost(`${base}/api/bench-diagnostics`, 204)),
    );
    const floorBurstWallMs = performance.now() - floorStarted;
    const floorCpuAfter = threadsCpuMs(server.pid);
    const plainPostMs = await plainServerBurst(runs);
    await timedPost(`${base}/api/bench-diagnostics`, 204); // the figures start after the floors' bursts

    const counts = { reconnects: 0 };
    const cpuBefore = threadsCpuMs(server.pid);
    const started = performance.now();
    let answered = 0;
    let cpuAnswered: ThreadsCpu | undefined;
    let postBurstWallMs = 0;
    const results = await Promise.all(
      Array.from({ length: runs }, async () => {
        const t0 = performance.now();
        const { id } = await post(base, config);
        const postMs = performance.now() - t0;
        answered += 1;
        if (answered === runs) {
          cpuAnswered = threadsCpuMs(server.pid);
          postBurstWallMs = performance.now() - started;
        }
        return { id, postMs, seqs: await watch(base, id, counts) };
      }),
    );
    const wallMs = performance.now() - started;
    const cpuAfter = threadsCpuMs(server.pid);
    const diagnostics = (await (await fetch(`${base}/api/bench-diagnostics`)).json()) as BenchDiagnostics;

    let eventsStored = 0;
    let lost = 0;
    let gappedRuns = 0;
    let watchdogEvents = 0;
    for (const { id, seqs } of results) {
      const stored = (await (await fetch(`${base}/api/runs/${id}/trace`)).text()).trim().split('\n');
      eventsStored += stored.length;
      watchdogEvents += stored.filter((line) => line.includes('"event":"watchdog_fired"')).length;
      const received = new Set(seqs.map((s) => s.seq));
      lost += stored.length - [...received].filter((seq) => seq < stored.length).length;
      if (!seqs.every((s, i) => s.seq === i)) gappedRuns += 1;
    }
    return {
      runThreads,
      runs,
      timeScale,
      postMs: results.map((r) => r.postMs),
      floorPostMs,
      plainPostMs,
      wallMs,
      eventsReceived: results.reduce((n, r) => n + r.seqs.length, 0),
      eventsStored,
      lost,
      gappedRuns,
      reconnects: counts.reconnects,
      watchdogEvents,
      server: diagnostics,
      mainThreadCpuMs: spent(cpuBefore, cpuAfter, 'main'),
      postBurstCpuMs: spent(cpuBefore, cpuAnswered, 'main'),
      floorBurstCpuMs: spent(floorCpuBefore, floorCpuAfter, 'main'),
      postBurstWallMs,
      floorBurstWallMs,
      postBurstOtherCpuMs: spent(cpuBefore, cpuAnswered, 'others'),
      floorBurstOtherCpuMs: spent(floorCpuBefore, floorCpuAfter, 'others'),
      loadBefore,
      built,
      buildAgeMin,
    };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n      server stderr: ${server.stderr().slice(-1500)}`, {
      cause: error,
    });
  } finally {
    await server.stop();
  }
}

/** User + system CPU so far, ms, of a process's main thread and of all its other threads together. */
interface ThreadsCpu {
  main: number;
  others: number;
}

/**
 * ThreadsCpu from /proc/<pid>/task/<tid>/stat (Linux only; undefined elsewhere). A thread that
 * ended between two reads takes its CPU with it, so `others` can only undercount.
 */
function threadsCpuMs(pid: number | undefined): ThreadsCpu | undefined {
  if (pid === undefined) return undefined;
  const cpuOf = (tid: string): number => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms (USER_HZ 100)
  };
  try {
    let others = 0;
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      if (tid === String(pid)) continue;
      try {
        others += cpuOf(tid);
      } catch {
        // the thread ended after the listing
      }
    }
    return { main: cpuOf(String(pid)), others };
  } catch {
    return undefined;
  }
}

function spent(
  before: ThreadsCpu | undefined,
  after: ThreadsCpu | undefined,
  which: keyof ThreadsCpu,
): number | undefined {
  return before !== undefined && after !== undefined ? after[which] - before[which] : undefined;
}

/** Reuses .next when there is a build (BENCH_REBUILD=1: build anyway). */
function ensureBuild(root: string): { built: boolean; buildAgeMin: number } {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  let built = false;
  if (!fs.existsSync(buildId) || process.env.BENCH_REBUILD === '1') {
    console.log('      … building (next build), a few minutes');
    const result = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'],
      { cwd: root, stdio: 'inherit' },
    );
    if (result.status !== 0) throw new Error(`next build failed (${result.status})`);
    built = true;
  }
  return { built, buildAgeMin: (Date.now() - fs.statSync(buildId).mtimeMs) / 60_000 };
}

/** One POST of `{}` that must answer `status` (the bench diagnostics reset: the cheapest route the server has); its wall ms. */
async function timedPost(url: string, status: number): Promise<number> {
  const t0 = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  await response.arrayBuffer();
  if (response.status !== status) throw new Error(`POST ${url}: ${response.status}`);
  return performance.now() - t0;
}

/** `runs` simultaneous POSTs to a plain node:http server started in a child process for them. */
async function plainServerBurst(runs: number): Promise<number[]> {
  const code =
    "const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => { r.statusCode = 204; r.end(); }); });" +
    "s.listen(0, '127.0.0.1', () => console.log(s.address().port));";
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.once('exit', (status) => reject(new Error(`the plain HTTP server exited (${status})`)));
    });
    const url = `http://127.0.0.1:${port}/`;
    await timedPost(url, 204);
    return await Promise.all(Array.from({ length: runs }, () => timedPost(url, 204)));
  } finally {
    child.kill();
  }
}

async function post(base: string, config: unknown): Promise<{ id: string }> {
  const response = await fetch(`${base}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config }),
  });
  if (response.status !== 201) throw new Error(`POST /api/runs: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/**
 * Reads a run's whole event stream (from seq 0) to its terminate; the seq and event name of each
 * frame. A dropped connection is resumed after the last seq received, as a browser's
 * EventSource does (counted in `reconnects`).
 */
async function watch(
  base: string,
  id: string,
  counts: { reconnects: number },
): Promise<Array<{ seq: number; event: string }>> {
  const out: Array<{ seq: number; event: string }> = [];
  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 0) {
      counts.reconnects += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (attempt > 20) throw new Error(`GET /api/runs/${id}/events: gave up after 20 reconnects`);
    try {
      const headers: Record<string, string> =
        out.length > 0 ? { 'Last-Event-ID': String(out.at(-1)!.seq) } : {};
      const response = await fetch(`${base}/api/runs/${id}/events`, { headers });
      if (!response.ok || !response.body) continue;
      const decoder = new TextDecoder();
      let buffer = '';
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const frames = buffer.split('\n\n');
        buffer = frames.pop()!;
        for (const frame of frames) {
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          const event = JSON.parse(data.slice(6)) as { seq: number; event: string };
          out.push({ seq: event.seq, event: event.event });
        }
      }
      if (out.at(-1)?.event === 'terminate') return out;
    } catch {
      // dropped: resume after the last seq received
    }
  }
}

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
