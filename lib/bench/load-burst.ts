import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { lessonRunConfig, LESSONS } from '@/lib/lessons';
import type { BenchDiagnostics } from '@/lib/server/bench-diagnostics';

/**
 * What the load parts of the bench share (lib/bench/load.ts: one `next start`;
 * lib/bench/instances.ts: two instances and two workers): the runs they POST, the burst of POSTs
 * each followed by its own SSE client, and the count of events the clients never received.
 */

const SLUG = 'stream-idle-watchdog';

/**
 * The time scale of the one run played before the load: it is there for the server's one-time
 * costs (route compilation, the threads' warm-up), which do not depend on the run's pace, so it
 * need not take the 4.6 minutes the lesson's "on" side takes at the real clock's.
 */
const WARM_UP_SCALE = 0.01;

/** A count of runs from the environment variable `name` (default 100), or an error naming it. */
export function runsFromEnv(name: string): number {
  const runs = Number(process.env[name] ?? 100);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`${name} must be a whole number of runs, 1 or more (got "${process.env[name]}")`);
  return runs;
}

/** A time scale from the environment variable `name` (`fallback` when unset), or an error naming it. */
export function timeScaleFromEnv(name: string, fallback: string): number {
  const value = Number(process.env[name] ?? fallback);
  if (!(value > 0 && value <= 1))
    throw new Error(`${name} must be a time scale above 0 and at most 1 (got "${process.env[name]}")`);
  return value;
}

/**
 * The runs every load pass POSTs: the watchdog lesson's "on" side (two silent streams the
 * watchdog must cut, then a normal run) on the real clock at `timeScale`, the same config and seed
 * each time; and the run played to its end before the load (`warmUp`).
 */
export function loadRunConfig(timeScale: number): { config: unknown; warmUp: unknown } {
  const lesson = LESSONS.find((l) => l.slug === SLUG)!;
  const side = lessonRunConfig(lesson, 'on', { clock: 'real', timeScale });
  // The lesson's time budget (8 min of run time) ends a run starved of CPU early; the load should not.
  const config = { ...side, budgets: { ...side.budgets, maxRunMs: 86_400_000 } };
  return { config, warmUp: { ...config, timeScale: Math.min(timeScale, WARM_UP_SCALE) } };
}

/** Reuses .next when there is a build (BENCH_REBUILD=1: build anyway). */
export function ensureBuild(root: string): { built: boolean; buildAgeMin: number } {
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
export async function timedPost(url: string, status: number): Promise<number> {
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

export async function post(base: string, config: unknown): Promise<{ id: string }> {
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
export async function watch(
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

/** One run of a burst: its id, how long its POST took to answer (wall ms), and the frames its client received. */
export interface BurstRun {
  id: string;
  postMs: number;
  seqs: Array<{ seq: number; event: string }>;
}

/**
 * `runs` POSTs of `config` at once, the i-th to the instance at `postTo(i)`, each run followed
 * from seq 0 to its terminate through `watchFrom(i)` as soon as its POST is answered. `onAnswered`
 * is called once the last POST is answered (before any stream ends). Wall ms are from the POSTs.
 */
export async function postAndFollow({
  runs,
  config,
  postTo,
  watchFrom,
  onAnswered,
}: {
  runs: number;
  config: unknown;
  postTo: (i: number) => string;
  watchFrom: (i: number) => string;
  onAnswered?: (burstWallMs: number) => void;
}): Promise<{ results: BurstRun[]; wallMs: number; reconnects: number }> {
  const counts = { reconnects: 0 };
  const started = performance.now();
  let answered = 0;
  const results = await Promise.all(
    Array.from({ length: runs }, async (_, i): Promise<BurstRun> => {
      const t0 = performance.now();
      const { id } = await post(postTo(i), config);
      const postMs = performance.now() - t0;
      answered += 1;
      if (answered === runs) onAnswered?.(performance.now() - started);
      return { id, postMs, seqs: await watch(watchFrom(i), id, counts) };
    }),
  );
  return { results, wallMs: performance.now() - started, reconnects: counts.reconnects };
}

/** What the clients received against what the store holds, over every run of a burst. */
export interface EventCounts {
  eventsReceived: number;
  eventsStored: number;
  /** Stored events a client never received, and runs whose received seqs were not 0..n contiguous. */
  lost: number;
  gappedRuns: number;
  watchdogEvents: number;
}

/** Reads each run's stored log (GET /api/runs/:id/trace at `base`) and counts what its client missed. */
export async function countEvents(base: string, results: readonly BurstRun[]): Promise<EventCounts> {
  const counts: EventCounts = {
    eventsReceived: 0,
    eventsStored: 0,
    lost: 0,
    gappedRuns: 0,
    watchdogEvents: 0,
  };
  for (const { id, seqs } of results) {
    const stored = (await (await fetch(`${base}/api/runs/${id}/trace`)).text()).trim().split('\n');
    counts.eventsReceived += seqs.length;
    counts.eventsStored += stored.length;
    counts.watchdogEvents += stored.filter((line) => line.includes('"event":"watchdog_fired"')).length;
    const received = new Set(seqs.map((s) => s.seq));
    counts.lost += stored.length - [...received].filter((seq) => seq < stored.length).length;
    if (!seqs.every((s, i) => s.seq === i)) counts.gappedRuns += 1;
  }
  return counts;
}

/** Starts a server's bench diagnostics again (POST /api/bench-diagnostics: a 204), or says it has none. */
export async function resetDiagnostics(base: string): Promise<void> {
  const reset = await fetch(`${base}/api/bench-diagnostics`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (reset.status !== 204)
    throw new Error(
      `the server at ${base} has no bench diagnostics (${reset.status}); is the build older than lib/bench/load-burst.ts?`,
    );
}

/** A server's bench diagnostics since the last reset (GET /api/bench-diagnostics). */
export async function readDiagnostics(base: string): Promise<BenchDiagnostics> {
  return (await (await fetch(`${base}/api/bench-diagnostics`)).json()) as BenchDiagnostics;
}
