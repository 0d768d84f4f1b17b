import type { EngineFloor } from './engine-floor';
import { measureEngineOverhead } from './engine-overhead';
import { recordBenchRun } from './record-run';
import { report } from './report';
import { runBundled } from './run-bundled';
import { measureSseThroughput } from './sse-throughput';

/** The engine-overhead target: the whole engine ÷ the bare SDK on the same bytes, CPU. */
const ENGINE_TARGET = 1.15;

/** Engine overhead and live SSE (BENCH_ONLY=engine: these alone). */
export async function engineFigures(): Promise<void> {
  const exchanges = await recordBenchRun();
  const overhead = await measureEngineOverhead({ exchanges, rounds: 25 });
  report(
    'engine overhead, 50-turn run vs the bare SDK on the same bytes',
    `median CPU ${overhead.engineMs.toFixed(1)} ms vs ${overhead.sdkMs.toFixed(1)} ms; paired ratio ${overhead.ratio.toFixed(3)} ` +
      `(middle half ${overhead.spread[0].toFixed(2)}–${overhead.spread[1].toFixed(2)}; ${overhead.events} events a run)`,
    overhead.ratio <= ENGINE_TARGET,
    `target ≤ ${ENGINE_TARGET.toFixed(2)}`,
  );

  // The same figure with the engine bundled, in a process of its own: as the server build and
  // sweep workers run it (no tsx). A second figure beside the first, not a replacement.
  const bundled = JSON.parse(
    (await runBundled({ entry: 'lib/bench/engine-overhead-entry.ts' })).trim().split('\n').at(-1)!,
  ) as Awaited<ReturnType<typeof measureEngineOverhead>>;
  report(
    'engine overhead, the same, bundled as the server and sweep workers run the code (no tsx)',
    `median CPU ${bundled.engineMs.toFixed(1)} ms vs ${bundled.sdkMs.toFixed(1)} ms; paired ratio ${bundled.ratio.toFixed(3)} ` +
      `(middle half ${bundled.spread[0].toFixed(2)}–${bundled.spread[1].toFixed(2)})`,
    bundled.ratio <= ENGINE_TARGET,
    `target ≤ ${ENGINE_TARGET.toFixed(2)}`,
  );

  // How low the ratio above can go: the provider layer alone (render, SDK, translate) on the
  // engine run's own requests, bundled; the engine's ratio measured beside it, same rounds.
  const floor = JSON.parse(
    (await runBundled({ entry: 'lib/bench/engine-floor-entry.ts' })).trim().split('\n').at(-1)!,
  ) as EngineFloor;
  console.log(
    `INFO  engine floor: the provider layer alone (render each neutral request, the SDK, stream parts; no loop, events, watchdog or context) ÷ the bare SDK, same bodies and bytes, bundled\n` +
      `      median CPU ${floor.floorMs.toFixed(1)} ms vs ${floor.sdkMs.toFixed(1)} ms; paired ratio ${floor.floorRatio.toFixed(3)} (middle half ${floor.floorSpread[0].toFixed(2)}–${floor.floorSpread[1].toFixed(2)}): ` +
      (floor.floorRatio <= ENGINE_TARGET
        ? `under ${ENGINE_TARGET.toFixed(2)}, so rendering from a neutral trajectory does not rule the target out; ${ENGINE_TARGET.toFixed(2)} leaves the loop, events, watchdog, context and assembly ` +
          `${(ENGINE_TARGET * floor.sdkMs - floor.floorMs).toFixed(1)} ms a run together (they take ${(floor.engineMs - floor.floorMs).toFixed(1)} now)\n`
        : `over ${ENGINE_TARGET.toFixed(2)}, so the target is out of reach for any engine that renders from a neutral trajectory (which takeover requires)\n`) +
      `      the whole engine in the same rounds: ${floor.engineMs.toFixed(1)} ms, paired ratio ${floor.engineRatio.toFixed(3)} (middle half ${floor.engineSpread[0].toFixed(2)}–${floor.engineSpread[1].toFixed(2)})\n`,
  );

  const sse = await measureSseThroughput({ replays: 20 });
  console.log(
    `INFO  events per second through the SSE route (GET /api/runs/:id/events), ${sse.events} events a run\n` +
      `      live run on the virtual clock, read through the route: ${Math.round(sse.liveEventsPerSec).toLocaleString('en')} events/s (engine, simulated vendor and checks included)\n` +
      `      the same run with nobody reading (registry and store):  ${Math.round(sse.unwatchedEventsPerSec).toLocaleString('en')} events/s\n` +
      `      the same run with no route, registry or store (launchRun alone): ${Math.round(sse.bareEventsPerSec).toLocaleString('en')} events/s ` +
      `(${sse.bareWallMs.toFixed(0)} ms of wall time a run, ${sse.bareCpuMs.toFixed(0)} ms of it CPU in this process)\n` +
      `      the live serving path alone (recorded events appended live): ${Math.round(sse.servingEventsPerSec).toLocaleString('en')} events/s\n` +
      `      replay of the finished run:                             ${Math.round(sse.replayEventsPerSec).toLocaleString('en')} events/s\n`,
  );
}
