// Where the CPU goes, by layer, in a bundled process of its own (see run-bundled.ts and
// cpu-owners.ts): the engine bench's run and the bare SDK on the same bytes, and the sweep
// ceiling's sample of sweep runs as a worker runs them. Prints one JSON line for `npm run bench`.
import { fileURLToPath } from 'node:url';
import { runSweepJob } from '@/lib/sweeps/run-sweep-job';
import { enableCheckResultCache } from '@/lib/tools/check/check-result-cache';
import { mergeOwners, profileOwners, type CpuOwners } from './cpu-owners';
import { engineRun, sdkOnly } from './engine-overhead';
import { recordBenchRun } from './record-run';
import { benchJobs, benchSample } from './sweep-throughput';

const bundle = fileURLToPath(import.meta.url);
const runs = Number(process.env.BENCH_OWNER_RUNS ?? 40);

const exchanges = await recordBenchRun();
for (let i = 0; i < 10; i++) {
  await engineRun(exchanges);
  await sdkOnly(exchanges);
}
const repeat = (n: number, work: () => Promise<unknown>) => async () => {
  for (let i = 0; i < n; i++) await work();
};
// In turns of a quarter each, so the machine's load moves both alike (the profiler samples wall time).
const engineParts: CpuOwners[] = [];
const sdkParts: CpuOwners[] = [];
const quarter = Math.max(1, Math.round(runs / 4));
for (let turn = 0; turn < 4; turn++) {
  engineParts.push(
    await profileOwners({ bundle, runs: quarter, work: repeat(quarter, () => engineRun(exchanges)) }),
  );
  sdkParts.push(
    await profileOwners({ bundle, runs: quarter, work: repeat(quarter, () => sdkOnly(exchanges)) }),
  );
}
const engine = mergeOwners(engineParts);
const sdk = mergeOwners(sdkParts);

const sample = benchSample(benchJobs(1000), 32);
enableCheckResultCache(); // as in a sweep worker thread
for (const job of sample) await runSweepJob({ sweepId: 'warm', job });
const rounds = Math.max(1, Math.round(runs / 10));
const sweep = await profileOwners({
  bundle,
  runs: rounds * sample.length,
  work: async () => {
    for (let r = 0; r < rounds; r++) for (const job of sample) await runSweepJob({ sweepId: 'owners', job });
  },
});
console.log(JSON.stringify({ engine, sdk, sweep }));
process.exit(0);
