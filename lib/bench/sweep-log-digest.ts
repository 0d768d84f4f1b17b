// A speed change must not change a run: hash many sweep jobs' event logs, one line a job, and
// compare two builds' files (`diff`). Run:
//   OUT=/tmp/before.txt node --conditions=react-server --import tsx lib/bench/sweep-log-digest.ts
// SEEDS (default 2) widens the grid; the last line is one digest of every job. BUNDLE=1 runs
// the jobs through the sweep worker's bundle (lib/sweeps/worker-bundle.ts), the code a pool's
// workers load, instead of the TypeScript sources: both must hash the same.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SweepGridSchema } from '@/lib/protocol';
import { expandGrid } from '@/lib/sweeps/expand-grid';
import { runSweepJob, type SweepJobResult } from '@/lib/sweeps/run-sweep-job';
import { sweepWorkerBundle } from '@/lib/sweeps/worker-bundle';

const plan = (id: string, action: object, when: object = { kind: 'requests', numbers: [2, 3] }): object => ({
  id,
  plan: { rules: [{ id: 'r', when, action }] },
});

/** Every scenario, preset and kind of fault, on both simulated dialects. */
const grid = SweepGridSchema.parse({
  scenarios: ['fix-failing-test', 'growing-context', 'huge-log', 'long-project'],
  configurations: ['codesmith', 'naive', 's11', 'course', 'sdk-default'].map((preset) => ({
    id: preset,
    preset,
  })),
  faultPlans: [
    { id: 'none' },
    plan('overloaded', { type: 'http_error', status: 529 }),
    plan('drop', { type: 'drop', during: 'text' }, { kind: 'probability', p: 0.3 }),
    plan('malformed', { type: 'malformed', afterEvents: 3 }),
    plan('stall', { type: 'stall', during: 'tool_args' }, { kind: 'requests', numbers: [1, 4] }),
    plan('slow', { type: 'slow_drip', delayMs: 200 }, { kind: 'probability', p: 0.5 }),
    plan(
      'keepalive',
      { type: 'keepalive_only', intervalMs: 5000, style: 'ping' },
      { kind: 'requests', numbers: [2] },
    ),
    plan(
      'sse-error',
      { type: 'sse_error', errorType: 'overloaded_error', during: 'thinking' },
      { kind: 'requests', numbers: [1, 3] },
    ),
    plan('reset', { type: 'connection', mode: 'reset' }, { kind: 'requests', numbers: [2] }),
    plan('proxy', { type: 'proxy_error', status: 502, body: 'html' }, { kind: 'requests', numbers: [3] }),
  ],
  vendors: ['sim-anthropic', 'sim-openai'],
  seeds: { from: 1, to: Number(process.env.SEEDS ?? 2) },
});

type RunJob = (task: Parameters<typeof runSweepJob>[0]) => Promise<SweepJobResult>;
const run: RunJob = process.env.BUNDLE
  ? ((await import(pathToFileURL(await sweepWorkerBundle()).href)) as { default: RunJob }).default
  : runSweepJob;

const lines: string[] = [];
const all = createHash('sha256');
for (const job of expandGrid(grid)) {
  const { log } = await run({ sweepId: 'digest', job });
  const hash = createHash('sha256').update(log.bodies.join('\n')).digest('hex').slice(0, 16);
  all.update(hash);
  lines.push(`${job.index} ${job.key} seed=${job.seed} events=${log.bodies.length} ${hash}`);
}
lines.push(`all ${lines.length} jobs ${all.digest('hex').slice(0, 16)}`);
if (process.env.OUT) writeFileSync(process.env.OUT, `${lines.join('\n')}\n`);
console.log(lines.at(-1));
process.exit(0);
