import { measureEngineOverhead } from './engine-overhead';
import { recordBenchRun } from './record-run';
import { measureSseThroughput } from './sse-throughput';
import { measureWatchdogLateness } from './watchdog-precision';

/** `npm run bench`: speed targets, measured side by side in one process. */
async function main(): Promise<void> {
  console.log('Loop Lab benchmarks (CPU times are medians; ratios measured side by side in this process)\n');

  const exchanges = await recordBenchRun();
  const overhead = await measureEngineOverhead({ exchanges, rounds: 25 });
  report(
    'engine overhead, 50-turn run vs the bare SDK on the same bytes',
    `median CPU ${overhead.engineMs.toFixed(1)} ms vs ${overhead.sdkMs.toFixed(1)} ms; paired ratio ${overhead.ratio.toFixed(3)} ` +
      `(middle half ${overhead.spread[0].toFixed(2)}–${overhead.spread[1].toFixed(2)}; ${overhead.events} events a run)`,
    overhead.ratio <= 1.1,
    'target ≤ 1.10',
  );

  const sse = await measureSseThroughput({ replays: 20 });
  console.log(
    `INFO  events per second through the SSE route (GET /api/runs/:id/events)\n` +
      `      live run on the virtual clock: ${Math.round(sse.liveEventsPerSec).toLocaleString('en')} events/s (${sse.events} events, engine included)\n` +
      `      replay of the finished run:    ${Math.round(sse.replayEventsPerSec).toLocaleString('en')} events/s\n`,
  );

  const watchdog = await measureWatchdogLateness({ firings: 200, windowMs: 20 });
  report(
    'watchdog firing time minus deadline, real clock, 200 firings',
    `p50 ${watchdog.p50.toFixed(2)} ms, p99 ${watchdog.p99.toFixed(2)} ms, max ${watchdog.max.toFixed(2)} ms`,
    watchdog.p99 <= 25,
    'target p99 ≤ 25 ms',
  );
}

function report(name: string, value: string, ok: boolean, target: string): void {
  console.log(`${ok ? 'PASS' : 'MISS'}  ${name}\n      ${value}  (${target})\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
