// Engine overhead measured in a bundled process of its own (see run-bundled.ts): the engine
// as the Next server build and sweep workers run it, without tsx naming every closure at run
// time. Prints one JSON line, the measureEngineOverhead result, for `npm run bench` to report.
import { measureEngineOverhead } from './engine-overhead';
import { recordBenchRun } from './record-run';

const exchanges = await recordBenchRun();
const overhead = await measureEngineOverhead({
  exchanges,
  rounds: Number(process.env.BENCH_ENGINE_ROUNDS ?? 25),
});
console.log(JSON.stringify(overhead));
process.exit(0);
