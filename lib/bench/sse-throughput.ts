import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunConfigSchema, runningTotals, type RunEvent, type RunTotals } from '@/lib/protocol';
import type { LaunchOptions, RunHandle } from '@/lib/runtime/types';
import { median } from './stats';

export interface SseThroughput {
  events: number;
  /** A live virtual-clock run read through the route, from start to terminate. */
  liveEventsPerSec: number;
  /** The same run with nobody reading: the run's own pace (engine, simulated vendor, checks) plus the registry and the store. */
  unwatchedEventsPerSec: number;
  /** The same run with no route, registry or store at all: `launchRun` into an array. */
  bareEventsPerSec: number;
  /** Wall and CPU time (this process, all threads; check child processes not included) of one bare run. */
  bareWallMs: number;
  bareCpuMs: number;
  /** The live path without the run: the run's recorded events appended live (redaction, store, fan-out, SSE) and read through the route's SSE response. */
  servingEventsPerSec: number;
  /** Replays of the finished run through the route. */
  replayEventsPerSec: number;
}

/**
 * Events per second through the real SSE route handler (GET /api/runs/:id/events), side by
 * side: a live run, the same run unwatched, the live serving path on its own (the recorded
 * events of that run produced as fast as a run could, a step's events in one burst), and
 * replays, and the same run with no route, registry or store at all (bare). Live minus
 * unwatched is what watching costs, unwatched minus bare what keeping the run costs; serving
 * is the serving path's ceiling. Live, unwatched and bare are measured in turn each round.
 */
export async function measureSseThroughput(options: {
  replays: number;
  runs?: number;
}): Promise<SseThroughput> {
  process.env.LOOP_LAB_DATA_DIR = mkdtempSync(join(tmpdir(), 'loop-lab-bench-'));
  const { getRunRegistry, createRunRegistry, createSseResponse, resumePoint } = await import('@/lib/server');
  const { getStore } = await import('@/lib/store');
  const { launchRun } = await import('@/lib/runtime/launch-run');
  const registry = getRunRegistry();
  const config = RunConfigSchema.parse({
    provider: { vendor: 'sim-anthropic' },
    scenario: 'long-project',
    clock: 'virtual',
  });
  const runs = options.runs ?? 3;

  const read = async (id: string): Promise<number> => {
    // What GET /api/runs/:id/events does (the route is one call to this).
    const request = new Request(`http://bench.local/api/runs/${id}/events`);
    const response = await createSseResponse({
      registry,
      runId: id,
      afterSeq: resumePoint({ request }),
      signal: request.signal,
    });
    const text = await response.text();
    return text.split('\n\n').filter((frame) => frame.startsWith('id: ')).length;
  };
  const timed = async (work: () => Promise<number>): Promise<{ n: number; ms: number }> => {
    const started = performance.now();
    const n = await work();
    return { n, ms: performance.now() - started };
  };

  // Warm-up: the first run pays for module loading and the check pool.
  const warm = await registry.startRun({ config });
  const events = await read(warm.id);
  if (events === 0) throw new Error('the SSE route sent no events');

  const live: number[] = [];
  const unwatched: number[] = [];
  const bare: number[] = [];
  const bareWall: number[] = [];
  const bareCpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const watched = await timed(async () => read((await registry.startRun({ config })).id));
    live.push((watched.n / watched.ms) * 1000);
    const alone = await timed(async () => {
      const { id } = await registry.startRun({ config });
      await registry.whenFinished(id);
      return events;
    });
    unwatched.push((alone.n / alone.ms) * 1000);
    const cpuBefore = process.cpuUsage();
    const byItself = await timed(async () => {
      const kept: RunEvent[] = [];
      await launchRun({ runId: `bare-${i}`, config, onEvent: (event) => void kept.push(event) }).done;
      return kept.length;
    });
    const cpu = process.cpuUsage(cpuBefore);
    bare.push((byItself.n / byItself.ms) * 1000);
    bareWall.push(byItself.ms);
    bareCpu.push((cpu.user + cpu.system) / 1000);
  }

  // The serving path alone: a launch that replays the recorded run's events live, one
  // engine step (up to the next request) per macrotask, through its own registry and the same store.
  const recorded = await getStore().readEvents({ runId: warm.id });
  // The run's totals after each event, as its run log handed them: folded once, before the timing.
  const totals = runningTotals(recorded);
  const serving = createRunRegistry({ store: getStore(), launch: (o) => replayLaunch(o, recorded, totals) });
  const servingRates: number[] = [];
  for (let i = 0; i < runs * 3; i++) {
    const { id } = await serving.startRun({ config });
    const response = await timed(async () => {
      // The route's own handler is bound to the process registry: this is what it calls.
      const r = await createSseResponse({ registry: serving, runId: id });
      const n = (await r.text()).split('\n\n').filter((frame) => frame.startsWith('id: ')).length;
      await serving.whenFinished(id);
      return n;
    });
    servingRates.push((response.n / response.ms) * 1000);
  }

  const started = performance.now();
  let total = 0;
  for (let i = 0; i < options.replays; i++) total += await read(warm.id);
  const replayMs = performance.now() - started;
  return {
    events,
    liveEventsPerSec: median(live),
    unwatchedEventsPerSec: median(unwatched),
    bareEventsPerSec: median(bare),
    bareWallMs: median(bareWall),
    bareCpuMs: median(bareCpu),
    servingEventsPerSec: median(servingRates),
    replayEventsPerSec: (total / replayMs) * 1000,
  };
}

/** A stand-in run that emits recorded events under its own id, a request's worth per macrotask. */
function replayLaunch(
  { runId, onEvent }: LaunchOptions,
  recorded: readonly RunEvent[],
  totals: readonly Readonly<RunTotals>[],
): RunHandle {
  const done = (async () => {
    for (let i = 0; i < recorded.length; i += 1) {
      const event = recorded[i]!;
      if (event.event === 'model_request') await new Promise((resolve) => setImmediate(resolve));
      onEvent({ ...event, run_id: runId }, totals[i]!);
    }
  })();
  // Recorded events were redacted when they were recorded.
  return { runId, done, control: () => {}, redactText: (text) => text };
}
