// The sweep ceiling measured in a bundled process of its own (see run-bundled.ts): prints one
// JSON line, the SweepCeiling, for `npm run bench` to report.
import { measureSweepCeiling } from './sweep-ceiling';
import { benchJobs, benchSample } from './sweep-throughput';

const sample = benchSample(
  benchJobs(Number(process.env.BENCH_SWEEP_RUNS ?? 1000)),
  Number(process.env.BENCH_CEILING_RECORD ?? 32),
);
const ceiling = await measureSweepCeiling({
  sample,
  cores: Number(process.env.BENCH_CEILING_CORES ?? 2),
  rounds: Number(process.env.BENCH_CEILING_ROUNDS ?? 9),
});
console.log(JSON.stringify(ceiling));
process.exit(0);
