import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchDiagnostics } from '@/lib/server/bench-diagnostics';
import {
  countEvents,
  ensureBuild,
  loadRunConfig,
  post,
  postAndFollow,
  readDiagnostics,
  resetDiagnostics,
  timedPost,
  watch,
} from './load-burst';
import { startNextServer } from './next-server';

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
    const { config, warmUp } = loadRunConfig(timeScale);
    await watch(base, (await post(base, warmUp)).id, { reconnects: 0 });
    await resetDiagnostics(base);
    const floorCpuBefore = threadsCpuMs(server.pid);
    const floorStarted = performance.now();
    const floorPostMs = await Promise.all(
      Array.from({ length: runs }, () => timedPost(`${base}/api/bench-diagnostics`, 204)),
    );
    const floorBurstWallMs = performance.now() - floorStarted;
    const floorCpuAfter = threadsCpuMs(server.pid);
    const plainPostMs = await plainServerBurst(runs);
    await timedPost(`${base}/api/bench-diagnostics`, 204); // the figures start after the floors' bursts

    const cpuBefore = threadsCpuMs(server.pid);
    let cpuAnswered: ThreadsCpu | undefined;
    let postBurstWallMs = 0;
    const { results, wallMs, reconnects } = await postAndFollow({
      runs,
      config,
      postTo: () => base,
      watchFrom: () => base,
      onAnswered: (burstWallMs) => {
        cpuAnswered = threadsCpuMs(server.pid);
        postBurstWallMs = burstWallMs;
      },
    });
    const cpuAfter = threadsCpuMs(server.pid);
    const diagnostics = await readDiagnostics(base);
    const events = await countEvents(base, results);
    return {
      runThreads,
      runs,
      timeScale,
      postMs: results.map((r) => r.postMs),
      floorPostMs,
      plainPostMs,
      wallMs,
      ...events,
      reconnects,
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
