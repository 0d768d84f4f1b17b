// The engine floor measured in a bundled process of its own (see run-bundled.ts), as the
// engine-overhead figure's bundled variant is: prints one JSON line, the EngineFloor, for
// `npm run bench` to report. Checks first that the floor sends the engine's bodies.
import { assertSameBodies, measureEngineFloor, recordEngineRequests } from './engine-floor';
import { recordBenchRun } from './record-run';

const exchanges = await recordBenchRun();
const recorded = await recordEngineRequests(exchanges);
await assertSameBodies(recorded, exchanges);
const floor = await measureEngineFloor({
  exchanges,
  requests: recorded.requests,
  rounds: Number(process.env.BENCH_ENGINE_ROUNDS ?? 25),
});
console.log(JSON.stringify(floor));
process.exit(0);
