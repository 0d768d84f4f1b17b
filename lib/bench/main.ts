import { measureCheckCost } from './check-cost';
import { measureConcurrentSweeps, type ConcurrentSweepsRound } from './concurrent-sweeps';
import { describeClicks, measureClickToFirstEvent } from './click-to-first-event';
import {
  BUNDLE_TARGET_BYTES,
  describeBrowser,
  FRAME_TARGET_MS,
  measureBrowser,
  PAINT_TARGET_MS,
} from './browser-figures';
import { engineFigures } from './engine-figures';
import { loadavg } from 'node:os';
import { LOG_READ_RATIO_TARGET, LOG_READ_RSS_MB, measureLogRead } from './log-read';
import { measureCheckStarvation, measureHostileCheck } from './hostile-check';
import { LESSON_WALL_TARGET_MS, LOAD_FLOOR, measureLessonPlayTimes } from './lesson-play';
import { instancesFigures } from './instances';
import { measureLoad } from './load';
import { runsFromEnv, timeScaleFromEnv } from './load-burst';
import { describeLoad, LOAD_TARGETS, loadTargets } from './load-targets';
import { ceilingFigures, ownerFigures } from './cpu-figures';
import { report, summarize } from './report';
import { measureSweepThroughput, type SweepThroughput } from './sweep-throughput';
import { median } from './stats';
import { measureWatchdogLateness } from './watchdog-precision';

/** `npm run bench`: speed targets, measured side by side in one process. */
async function main(): Promise<void> {
  console.log('Loop Lab benchmarks (CPU times are medians; ratios measured side by side in this process)\n');
  const only = process.env.BENCH_ONLY;
  if (only === undefined || only === 'click') await clickFigures();
  if (only === 'click') return;
  if (only === undefined || only === 'browser') await browserFigures();
  if (only === 'browser') return;
  if (only === undefined || only === 'lessons') await lessonFigures();
  if (only === 'lessons') return;
  if (only === undefined || only === 'load') await loadFigures();
  if (only === 'load') return;
  if (only === undefined || only === 'instances') await instancesFigures();
  if (only === 'instances') return;
  if (only === 'engine') return void (await engineFigures());
  if (only === 'ceiling') return void (await ceilingFigures());
  if (only === 'checks') return void (await fairCheckFigures());
  if (only === 'watchdog') return void (await watchdogFigures());
  if (only === 'owners') return void (await ownerFigures());
  if (only === 'logs') return void (await logReadFigures());
  if (only !== 'sweep') await otherFigures();

  await ceilingFigures(await sweepFigures());
}

/** Click Run → first event painted, Chromium against `next start` (BENCH_ONLY=click: this alone). */
async function clickFigures(): Promise<void> {
  const name = 'click Run → first event painted, Chromium against `next start` (production build)';
  const result = await measureClickToFirstEvent({ clicks: Number(process.env.BENCH_CLICKS ?? 20) });
  if ('skipped' in result) {
    console.log(`SKIP  ${name}
      ${result.skipped}
`);
    return;
  }
  report(name, describeClicks(result), median(result.painted) <= 150, 'target median ≤ 150 ms');
}

/** The playground's JavaScript and a 20k-event run opened finished, Chromium against `next start` (BENCH_ONLY=browser: these alone). */
async function browserFigures(): Promise<void> {
  const result = await measureBrowser({ opens: Number(process.env.BENCH_OPENS ?? 4) });
  if ('skipped' in result) {
    console.log(`SKIP  the browser side (playground JavaScript, a 20k-event run opened)
      ${result.skipped}
`);
    return;
  }
  const { bundle, open } = describeBrowser(result);
  report(
    'JavaScript the playground route loads (every script Chromium fetches for / until the page is idle, gzip)',
    bundle,
    result.gzipBytes <= BUNDLE_TARGET_BYTES,
    `target ≤ ${BUNDLE_TARGET_BYTES / 1024} kB`,
  );
  const warm = result.opens.length > 1 ? result.opens.slice(1) : result.opens;
  report(
    'a finished run of ~20,000 events opened on its run page: navigation → whole run painted, and the longest frame',
    open,
    median(warm.map((o) => o.paintedMs)) <= PAINT_TARGET_MS &&
      Math.max(...warm.map((o) => o.longestFrameMs)) <= FRAME_TARGET_MS,
    `target ≤ ${PAINT_TARGET_MS} ms, no frame over ${FRAME_TARGET_MS} ms`,
  );
}

/**
 * Every lesson's two sides played as its page plays them, beside busy loops: each lesson's wall
 * time against its promise, and its text against the runs as played (BENCH_ONLY=lessons: this
 * alone; BENCH_LESSONS=slug,slug: those; BENCH_BUSY_PER_CORE: the busy loops a core, default 5).
 */
async function lessonFigures(): Promise<void> {
  const only = process.env.BENCH_LESSONS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const { how, busyLoops, lessons } = await measureLessonPlayTimes({
    ...(only ? { only } : {}),
    onLesson: (l) =>
      console.log(
        `      … ${l.slug} ${s(l.wallMs)} at load ${l.load.toFixed(1)}${l.problems.length > 0 ? `: ${l.problems.length} problem(s)` : ''}`,
      ),
  });
  const width = Math.max(...lessons.map((l) => l.slug.length));
  const lines = lessons.map(
    (l) =>
      `      ${l.wallMs < LESSON_WALL_TARGET_MS ? 'ok  ' : 'OVER'}  ${l.slug.padEnd(width)}  ${s(l.wallMs).padStart(6)}  (on ${s(l.onMs)}, off ${s(l.offMs)}; time scale ${l.timeScale}; load ${l.load.toFixed(1)})`,
  );
  const slowest = lessons.reduce((a, b) => (b.wallMs > a.wallMs ? b : a));
  const loads = lessons.map((l) => l.load);
  report(
    `every lesson played, both sides, wall time from Play to the later terminate, beside ${busyLoops} busy loops (${how})`,
    `slowest ${slowest.slug} ${s(slowest.wallMs)}; ${lessons.filter((l) => l.wallMs >= LESSON_WALL_TARGET_MS).length} of ${lessons.length} over; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}
${lines.join('\n')}`,
    lessons.every((l) => l.wallMs < LESSON_WALL_TARGET_MS),
    `target each < ${s(LESSON_WALL_TARGET_MS)}`,
  );
  const wrong = lessons.filter((l) => l.problems.length > 0);
  report(
    `every lesson's text against its runs as played, beside ${busyLoops} busy loops: each side its virtual-clock run event for event, ending as the lesson says, every claim borne out`,
    wrong.length === 0
      ? `${lessons.length} of ${lessons.length} hold at load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`
      : `${wrong.length} of ${lessons.length} do not:\n${wrong.map((l) => `      ${l.slug} (load ${l.load.toFixed(1)}): ${l.problems.join('; ')}`).join('\n')}`,
    wrong.length === 0 && Math.min(...loads) >= LOAD_FLOOR,
    `target every lesson, at a load of ${LOAD_FLOOR} or more`,
  );
}

/**
 * Many real-clock runs at once in one `next start`, each watched over SSE, on the server's default
 * configuration (its run threads). Two passes (BENCH_ONLY=load: these alone; BENCH_LOAD_RUNS,
 * default 100; BENCH_LOAD_THREADS: set the run threads instead of the default):
 * - the target's: the runs at the real clock's pace (BENCH_LOAD_SCALE, default 1), judged against
 *   the four targets;
 * - a stress figure, not judged: the same runs at time scale BENCH_LOAD_STRESS_SCALE (default
 *   0.04, each run's clock 25× the wall's, the burst a sweep-like load makes; `off`: skipped),
 *   with every floor, and beside it the same on the main thread (BENCH_LOAD_SIDES=threads: not).
 */
async function loadFigures(): Promise<void> {
  const runs = runsFromEnv('BENCH_LOAD_RUNS');
  const scale = timeScaleFromEnv;
  const runThreads = process.env.BENCH_LOAD_THREADS ?? 'default';
  const target = await measureLoad({ runs, timeScale: scale('BENCH_LOAD_SCALE', '1'), runThreads });
  report(
    `${target.runs} concurrent real-clock runs in one \`next start\`, each watched by an SSE client (the watchdog lesson's "on" side)`,
    describeLoad(target),
    loadTargets(target).every((t) => t.met),
    `targets watchdog lateness p99 ≤ ${LOAD_TARGETS.watchdogLateP99Ms} ms, event-loop delay p99 ≤ ${LOAD_TARGETS.loopDelayP99Ms} ms, POST p95 ≤ ${LOAD_TARGETS.postP95OverFloor} × the floor, 0 events lost`,
  );
  if (process.env.BENCH_LOAD_STRESS_SCALE === 'off') return;
  const timeScale = scale('BENCH_LOAD_STRESS_SCALE', '0.04');
  const stress = await measureLoad({ runs, timeScale, runThreads });
  const main =
    process.env.BENCH_LOAD_SIDES === 'threads'
      ? undefined
      : await measureLoad({ runs, timeScale, runThreads: '0' });
  console.log(
    `INFO  stress, not the target's figure: the same ${runs} runs at time scale ${timeScale} (the burst a sweep-like load makes), with the floors under each figure\n` +
      `      ${describeLoad(stress, { floors: 'always' })}` +
      (main
        ? `\n      the same on the main thread, just after:\n      ${describeLoad(main).replaceAll('\n', '\n  ')}`
        : '') +
      '\n',
  );
}

/**
 * A finished run opened on the server (its folded view and its whole log as JSONL) at 2,000 and
 * 100,000 events: CPU an event and RSS over three long opens (BENCH_ONLY=logs: this alone).
 */
async function logReadFigures(): Promise<void> {
  const load = loadavg()[0]!;
  const r = await measureLogRead();
  const us = (n: number) => `${n.toFixed(2)} µs`;
  const longMedian = median(r.long.cpuUsPerEvent);
  const ratio = longMedian / r.short.cpuUsPerEvent;
  const mb = (n: number) => `${n.toFixed(0)} MB`;
  report(
    'a finished run opened on the server, bundled: its folded view (GET /api/runs/:id/view) and its whole log as JSONL (GET /api/runs/:id/trace), each open a run not opened before',
    `CPU an event: ${r.short.events.toLocaleString('en')} events ${us(r.short.cpuUsPerEvent)} (median of 4), ` +
      `${r.long.events.toLocaleString('en')} events ${us(longMedian)} (each ${r.long.cpuUsPerEvent.map(us).join(', ')}): ${ratio.toFixed(2)}×\n` +
      `      RSS ${mb(r.rssMb.before)} before, after each of three ${r.long.events.toLocaleString('en')}-event opens ${r.rssMb.afterOpens.map(mb).join(', ')} ` +
      `(a view body ${(r.bodyChars / 1e6).toFixed(1)} M characters, the JSONL ${(r.jsonlBytes / 1e6).toFixed(1)} MB); load average ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
    ratio <= LOG_READ_RATIO_TARGET && Math.max(...r.rssMb.afterOpens) <= r.rssMb.before + LOG_READ_RSS_MB,
    `target linear: ≤ ${LOG_READ_RATIO_TARGET}× the short log's CPU an event, RSS after each open ≤ ${LOG_READ_RSS_MB} MB over before`,
  );
}

/** Everything but the sweep (BENCH_ONLY=sweep skips these). */
async function otherFigures(): Promise<void> {
  await engineFigures();
  await logReadFigures();
  await watchdogFigures();

  const cost = await measureCheckCost({ checks: 20 });
  console.log(
    `INFO  wall time of one run_check in its sandboxed child process (default scenario, 20 checks each)\n` +
      `      from the warm pool: median ${cost.pooledMs.toFixed(0)} ms, p95 ${cost.pooledP95Ms.toFixed(0)} ms\n` +
      `      fresh spawn:        median ${cost.freshMs.toFixed(0)} ms, p95 ${cost.freshP95Ms.toFixed(0)} ms\n`,
  );

  await fairCheckFigures();
}

/** The stream watchdog's lateness on the real clock, told by its own probe (BENCH_ONLY=watchdog: this alone). */
async function watchdogFigures(): Promise<void> {
  const watchdog = await measureWatchdogLateness({ firings: 200, windowMs: 20 });
  report(
    'watchdog firing time minus deadline, real clock, 200 firings',
    `p50 ${watchdog.p50.toFixed(2)} ms, p99 ${watchdog.p99.toFixed(2)} ms, max ${watchdog.max.toFixed(2)} ms`,
    watchdog.p99 <= 25,
    'target p99 ≤ 25 ms',
  );
}

/** Hostile checks beside other runs: timer lateness and check-pool starvation (BENCH_ONLY=checks: these alone). */
async function fairCheckFigures(): Promise<void> {
  const hostile = await measureHostileCheck({ timeScale: 1, hostileRuns: 2 });
  report(
    `${hostile.hostileRuns} runs writing hostile test files (busy loops, runaway allocations) beside another run: how late that run's timers fire`,
    `p99 ${hostile.besideP99LateMs.toFixed(1)} ms, max ${hostile.besideMaxLateMs.toFixed(1)} ms beside them ` +
      `(alone p99 ${hostile.aloneP99LateMs.toFixed(1)} ms, max ${hostile.aloneMaxLateMs.toFixed(1)} ms);\n      event-loop delay beside them max ${hostile.loopDelayMaxMs.toFixed(1)} ms, p99 ${hostile.loopDelayP99Ms.toFixed(1)} ms ` +
      `(alone max ${hostile.aloneLoopDelayMaxMs.toFixed(1)} ms); other run ended ${hostile.otherRunEnded}; load average ${loadavg()[0]!.toFixed(1)}\n      hostile checks: ${summarize(hostile.hostileResults)}`,
    hostile.besideP99LateMs <= 100,
    'target p99 ≤ 100 ms',
  );

  const starved = await measureCheckStarvation({ hostileRuns: 6 });
  console.log(
    `INFO  a normal virtual-clock run beside ${starved.hostileRuns} runs calling run_check in a loop (the check pool shared by run, a check rate per run)\n` +
      `      wall time alone ${(starved.aloneWallMs / 1000).toFixed(2)} s, beside them ${(starved.besideWallMs / 1000).toFixed(2)} s; ended ${starved.otherRunEnded}; ` +
      `load average ${loadavg()[0]!.toFixed(1)}\n      hostile checks meanwhile: ${summarize(starved.hostileResults)}\n`,
  );
}

/** The sweep's throughput (set against its ceiling by ceilingFigures), and the server's memory around it. */
async function sweepFigures(): Promise<SweepThroughput> {
  const sweep = await measureSweepThroughput({
    runs: Number(process.env.BENCH_SWEEP_RUNS ?? 1000),
    recordRuns: 32,
  });
  const ratio = sweep.poolRunsPerSec / sweep.sdkRunsPerSec;
  console.log(
    `INFO  sweep throughput: a ${sweep.runs}-run sweep on ${sweep.workers} worker threads (its target is against the ceiling, below)\n` +
      `      ${sweep.poolRunsPerSec.toFixed(1)} runs/s on the pool (runs stored in SQLite); ${sweep.sdkRunsPerSec.toFixed(1)} runs/s of @anthropic-ai/sdk alone on one core ` +
      `over ${sweep.recorded} of the sweep's runs recorded (${sweep.exchangesPerRun.toFixed(1)} model exchanges a run): ${ratio.toFixed(3)}× that\n` +
      `      the same ${sweep.recorded} runs one after another in this process (whole runtime, one core): ${sweep.oneCoreRunsPerSec.toFixed(1)} runs/s; ` +
      `pool ${(sweep.poolRunsPerSec / sweep.oneCoreRunsPerSec).toFixed(2)}× that\n` +
      `      CPU a run, every thread of the process: ${sweep.oneCoreCpuMsPerRun.toFixed(1)} ms one after another (V8's helper threads run beside it on the other core), ` +
      `${sweep.poolCpuMsPerRun.toFixed(1)} ms through the pool; the main thread's share (receiving and storing each run): ` +
      `${sweep.mainCpuMsPerRun === null ? 'not measured off Linux' : `${sweep.mainCpuMsPerRun.toFixed(2)} ms`}\n` +
      `      worker start: ${sweep.workers} workers from a new pool to each finishing its first run in ${(sweep.workerStartMs / 1000).toFixed(1)} s ` +
      `(the worker bundle was ready ${(sweep.bundleMs / 1000).toFixed(1)} s before: built, or reused when no source changed)\n`,
  );
  report(
    `server RSS around the ${sweep.runs}-run sweep (worker threads included)`,
    `baseline ${sweep.rssBaselineMb.toFixed(0)} MB, peak ${sweep.rssPeakMb.toFixed(0)} MB (+${(sweep.rssPeakMb - sweep.rssBaselineMb).toFixed(0)} MB; ` +
      `${sweep.peakFromKernel ? "the kernel's high-water mark" : 'sampled every 50 ms'}), after ${sweep.rssAfterMb.toFixed(0)} MB ` +
      `(${(sweep.afterMs / 1000).toFixed(1)} s after the pool closed, full collections every 0.5 s)`,
    sweep.rssPeakMb <= 500 && sweep.rssAfterMb <= sweep.rssBaselineMb * 1.1,
    'target peak ≤ 500 MB and back to baseline',
  );
  const many = await measureConcurrentSweeps({
    sweeps: 8,
    runsEach: Number(process.env.BENCH_SWEEP_RUNS ?? 1000),
  });
  const line = (r: ConcurrentSweepsRound): string =>
    `${r.poolsMade} pool${r.poolsMade === 1 ? '' : 's'} of ${many.workers} workers (${r.queuedAtOnce} sweeps queued behind the first), ${r.cancelled} cancelled, ${r.runsDone} runs stored; ` +
    `RSS ${r.rssBaselineMb.toFixed(0)} → peak ${r.rssPeakMb.toFixed(0)} → after ${r.rssAfterMb.toFixed(0)} MB ` +
    `(${r.rssAfterMb >= r.rssBaselineMb ? '+' : '−'}${((Math.abs(r.rssAfterMb - r.rssBaselineMb) / r.rssBaselineMb) * 100).toFixed(1)} %)` +
    `${r.threadsBaseline === null ? '' : `; threads ${r.threadsBaseline} before, ${r.threadsAfter} after`}`;
  const { first, second } = many;
  report(
    `${many.sweeps} sweeps of ${many.runsEach} runs posted at once, all still running or queued cancelled once the first had stored runs (RSS after: ${(many.afterMs / 1000).toFixed(1)} s later, full collections every 0.5 s)`,
    `first round: ${line(first)}\n      the same again: ${line(second)}`,
    [first, second].every(
      (r) =>
        r.poolsMade === 1 &&
        (r.threadsAfter ?? 0) <= (r.threadsBaseline ?? 0) &&
        r.rssAfterMb <= r.rssBaselineMb * 1.1,
    ),
    'target one pool, no extra threads after cancelling, RSS back within 10 % of the baseline in both rounds',
  );
  return sweep;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
