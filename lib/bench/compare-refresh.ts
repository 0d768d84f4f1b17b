import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRuns } from '@/lib/compare/compare-runs';
import { RunConfigSchema, type RunConfigInput, type RunEvent, type RunTotals } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createComparisonCache } from '@/lib/server/comparison-cache';
import { createSqliteRunStore } from '@/lib/store';
import { median, percentile } from './stats';

/**
 * CPU per refresh of GET /api/compare while one side is live (`node --expose-gc --import tsx
 * lib/bench/compare-refresh.ts`): a long run grows 20 events a refresh beside a finished one;
 * each refresh is answered both ways in turn, in one process, on the same store: the whole
 * logs folded again (main before the incremental fold: new events read, both logs kept) and
 * the comparison cache (new events folded into kept state). Answers are checked equal. Also
 * the heap each way holds for the pair once the live side has ended.
 */
const BURST = 20;

/** A run's log, with the run's totals after each event as its run log handed them. */
async function record(input: RunConfigInput): Promise<RunEvent[] & { totals: Readonly<RunTotals>[] }> {
  const config = RunConfigSchema.parse({ clock: 'virtual', ...input });
  const events = Object.assign([] as RunEvent[], { totals: [] as Readonly<RunTotals>[] });
  await launchRun({
    runId: 'bench',
    config,
    onEvent: (e, totals) => {
      events.push(e);
      events.totals.push(totals);
    },
  }).done;
  return events;
}

async function cpuMs(work: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const base: RunConfigInput = {
    provider: { vendor: 'sim-anthropic' },
    scenario: process.env.BENCH_SCENARIO ?? 'long-project',
    policy: 'long-output',
    seed: 3,
    budgets: { maxIterations: 200, maxCostUsd: 50, maxAttempts: 500 },
    // Every stream record 60 ms apart: past the 50 ms delta window, so each is an event of its own.
    faults: {
      rules: [
        { id: 'drip', enabled: true, when: { kind: 'always' }, action: { type: 'slow_drip', delayMs: 60 } },
      ],
      tools: [],
    },
  } as RunConfigInput;
  const a = await record(base);
  const b = await record({ ...base, preset: 'course' } as RunConfigInput);
  const dir = mkdtempSync(join(tmpdir(), 'loop-lab-compare-bench-'));
  try {
    const store = createSqliteRunStore({ dir });
    const startOf = (log: RunEvent[]) => (log[0] as Extract<RunEvent, { event: 'run_start' }>).config;
    await store.createRun({
      id: 'live',
      config: startOf(a),
      events: a.slice(0, 1).map((e) => ({ ...e, run_id: 'live' })),
      totals: a.totals[0]!,
    });
    await store.createRun({
      id: 'done',
      config: startOf(b),
      events: b.map((e) => ({ ...e, run_id: 'done' })),
      totals: b.totals.at(-1)!,
    });

    // Before: both logs kept whole (only new events read), compareRuns over both each refresh.
    let liveLog: RunEvent[] = [];
    let doneLog: RunEvent[] = [];
    const whole = async () => {
      liveLog = liveLog.concat(
        await store.readEvents({ runId: 'live', afterSeq: liveLog.at(-1)?.seq ?? -1 }),
      );
      if (doneLog.length === 0) doneLog = await store.readEvents({ runId: 'done' });
      return JSON.stringify(compareRuns({ id: 'live', events: liveLog }, { id: 'done', events: doneLog }));
    };
    const cache = createComparisonCache({ store });
    const folded = async () => JSON.stringify(await cache.compare('live', 'done'));

    const before: number[] = [];
    const after: number[] = [];
    let refresh = 0;
    for (let at = 1; at < a.length; at += BURST, refresh += 1) {
      const burst = a.slice(at, at + BURST);
      await store.appendEvents({
        runId: 'live',
        events: burst.map((e) => ({ ...e, run_id: 'live' })),
        totals: a.totals[at + burst.length - 1]!,
      });
      let x = '';
      let y = '';
      // Alternate which goes first, so neither always runs on a warmer cache.
      let w: number;
      let f: number;
      if (refresh % 2 === 0) {
        w = await cpuMs(async () => void (x = await whole()));
        f = await cpuMs(async () => void (y = await folded()));
      } else {
        f = await cpuMs(async () => void (y = await folded()));
        w = await cpuMs(async () => void (x = await whole()));
      }
      if (x !== y) throw new Error(`refresh ${refresh}: the two answers differ`);
      if (at >= 2000) {
        before.push(w);
        after.push(f);
      }
    }
    const ratios = before.map((w, i) => after[i]! / w);
    console.log(
      `events: live ${a.length}, finished ${b.length}; ${before.length} refreshes measured with the live side past 2,000 events (+${BURST} a refresh)`,
    );
    console.log(
      `CPU per refresh, median (p90): whole-log fold ${median(before).toFixed(2)} ms (${percentile(before, 90).toFixed(2)}), incremental ${median(after).toFixed(3)} ms (${percentile(after, 90).toFixed(3)}); paired ratio median ${median(ratios).toFixed(3)}`,
    );

    // What each way holds for the pair: both whole logs, or the comparison fold.
    const h0 = heapUsed();
    const logs = [await store.readEvents({ runId: 'live' }), await store.readEvents({ runId: 'done' })];
    const h1 = heapUsed();
    const fresh = createComparisonCache({ store });
    await fresh.compare('live', 'done');
    const h2 = heapUsed();
    console.log(
      `heap held for the pair once both ended: the two whole logs ${((h1 - h0) / 1e6).toFixed(2)} MB (${logs[0]!.length + logs[1]!.length} events); the comparison fold ${((h2 - h1) / 1e6).toFixed(2)} MB (${fresh.held().steps} steps pending)`,
    );
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
