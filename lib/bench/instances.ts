import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { askWorkers } from '@/lib/server/bench-diagnostics-channel';
import { startPostgresCluster, type PostgresCluster } from '@/lib/testing/postgres-cluster';
import { kill, killAll, startRedis, startWorker, type Started } from '@/scripts/api/processes.testkit';
import { describeInstances, instancesProblems, type SideFigures } from './instances-figures';
import { measureLoad } from './load';
import {
  countEvents,
  runsFromEnv,
  timeScaleFromEnv,
  ensureBuild,
  loadRunConfig,
  post,
  postAndFollow,
  readDiagnostics,
  resetDiagnostics,
  watch,
} from './load-burst';
import { LOAD_TARGETS } from './load-targets';
import { startNextServer, type NextServer } from './next-server';
import { report } from './report';

/**
 * The time scale the instances part plays its runs at unless BENCH_INSTANCES_SCALE says otherwise.
 * The watchdog lesson's "on" side takes 4.6 minutes at the real clock's pace, so 100 runs on each
 * of the two deployments would add over ten minutes to `npm run bench` (the load part measures one
 * process at the real clock's pace already). At 0.25 each side takes about 70 s, and every wait of
 * every run is a quarter as long: the 100 runs put the deadlines and work of 400 real-clock runs
 * into the same wall time, a harder load than the real clock's, the same for both sides.
 */
export const INSTANCES_SCALE = '0.25';

/**
 * The instances part (BENCH_ONLY=instances: this alone; BENCH_INSTANCES_RUNS, default 100;
 * BENCH_INSTANCES_SCALE, default INSTANCES_SCALE): both deployments' figures side by side.
 */
export async function instancesFigures(): Promise<void> {
  const runs = runsFromEnv('BENCH_INSTANCES_RUNS');
  const timeScale = timeScaleFromEnv('BENCH_INSTANCES_SCALE', INSTANCES_SCALE);
  const { one, many } = await measureInstances({ runs, timeScale });
  const problems = instancesProblems(one, many);
  report(
    `${runs} runs at once on one \`next start\`, then across two \`next start\` + two \`npm run worker\` on Redis and Postgres, each run followed by its own SSE client (the watchdog lesson's "on" side)`,
    describeInstances(one, many) + problems.map((p) => `\n      MISS  ${p}`).join(''),
    problems.length === 0,
    `target 0 events lost on either side, a lateness for every watchdog_fired, the deployment's watchdog lateness p99 ≤ ${LOAD_TARGETS.watchdogLateP99Ms} ms as one process's; the rest are figures`,
  );
}

/**
 * The same burst of runs (the load bench's: the watchdog lesson's "on" side, one config and seed,
 * POSTed all at once, each followed by its own SSE client) on two deployments, one after the
 * other: one `next start` as the load bench starts it, and two `next start` instances with two
 * `npm run worker` processes on a real Redis and a real Postgres (the one store every process
 * reaches, as on several machines; each process has a data folder of its own). In the second the
 * POSTs alternate between the instances and each run is followed through the instance that did
 * not start it; the runs, and so their watchdogs, run on the workers, whose diagnostics are read
 * over Redis (lib/server/bench-diagnostics-channel.ts).
 */
export async function measureInstances({
  runs,
  timeScale,
}: {
  runs: number;
  timeScale: number;
}): Promise<{ one: SideFigures; many: SideFigures }> {
  // The deployment first: it has the more processes to start, and a failure there costs less.
  console.log(`      … ${runs} runs across two \`next start\` and two workers`);
  const many = await measureDeployment({ runs, timeScale });
  console.log(`      … the same ${runs} runs on one \`next start\``);
  const load = await measureLoad({ runs, timeScale, runThreads: 'default' });
  const one: SideFigures = {
    processes: 'one `next start` (its default run threads), SQLite in its data folder',
    runs,
    timeScale,
    postMs: load.postMs,
    wallMs: load.wallMs,
    events: {
      eventsReceived: load.eventsReceived,
      eventsStored: load.eventsStored,
      lost: load.lost,
      gappedRuns: load.gappedRuns,
      watchdogEvents: load.watchdogEvents,
    },
    reconnects: load.reconnects,
    watchdogLateWallMs: load.server.watchdogLateWallMs,
    loopDelayP99Ms: { web: load.server.loopDelay.p99 },
    loadBefore: load.loadBefore,
  };
  return { one, many };
}

const WEB = ['web A', 'web B'] as const;

async function measureDeployment({
  runs,
  timeScale,
}: {
  runs: number;
  timeScale: number;
}): Promise<SideFigures> {
  const root = process.cwd();
  ensureBuild(root);
  const loadBefore = os.loadavg();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-bench-instances-'));
  const folder = (name: string): string => {
    fs.mkdirSync(path.join(scratch, name));
    return path.join(scratch, name);
  };
  let cluster: PostgresCluster | undefined;
  let redis: (Started & { url: string }) | undefined;
  const web: NextServer[] = [];
  const workers: Started[] = [];
  try {
    redis = await startRedis(folder('redis'));
    const redisUrl = redis.url;
    cluster = await startPostgresCluster();
    const env = {
      LOOP_LAB_REDIS_URL: redisUrl,
      LOOP_LAB_DATABASE_URL: await cluster.createDatabase(),
      LOOP_LAB_BENCH_DIAGNOSTICS: '1',
    };
    // One at a time, the workers first: on a loaded machine each one's start (tsx) is slow enough.
    for (const i of [0, 1]) workers.push(await startWorker(folder(`worker-${i}`), env));
    for (const i of [0, 1])
      web.push(
        await startNextServer({
          root,
          prefix: `loop-lab-bench-web-${i}-`,
          env: (base) => ({ ...base, ...env }),
        }),
      );
    const [a, b] = web.map((s) => s.base) as [string, string];

    // A run through each instance first, followed through the other: one-time costs are not load.
    const { config, warmUp } = loadRunConfig(timeScale);
    await Promise.all(
      [
        [a, b],
        [b, a],
      ].map(async ([from, to]) => watch(to!, (await post(from!, warmUp)).id, { reconnects: 0 })),
    );
    for (const base of [a, b]) await resetDiagnostics(base);
    const reset = await askWorkers(redisUrl, 'reset');
    if (reset.length !== workers.length)
      throw new Error(`${reset.length} of ${workers.length} workers answered for their bench diagnostics`);

    const burst = await postAndFollow({
      runs,
      config,
      postTo: (i) => (i % 2 === 0 ? a : b),
      watchFrom: (i) => (i % 2 === 0 ? b : a),
    });
    const servers = await Promise.all([a, b].map(readDiagnostics));
    const answers = await askWorkers(redisUrl, 'read');
    const events = await countEvents(a, burst.results);
    const loopDelayP99Ms: Record<string, number> = {};
    servers.forEach((d, i) => (loopDelayP99Ms[WEB[i]!] = d.loopDelay.p99));
    for (const { pid, diagnostics } of answers) loopDelayP99Ms[`worker ${pid}`] = diagnostics!.loopDelay.p99;
    return {
      processes:
        'two `next start` (POSTs alternating, each run followed through the other) + two `npm run worker` (the runs, each on its worker’s main thread: a worker asks the store before each vendor request whether it still holds the run, which a run thread cannot), Redis, Postgres',
      runs,
      timeScale,
      postMs: burst.results.map((r) => r.postMs),
      wallMs: burst.wallMs,
      events,
      reconnects: burst.reconnects,
      // The instances run no run: every watchdog fires on a worker (an instance's list is counted too, should one).
      watchdogLateWallMs: [
        ...answers.flatMap((w) => w.diagnostics!.watchdogLateWallMs),
        ...servers.flatMap((d) => d.watchdogLateWallMs),
      ],
      loopDelayP99Ms,
      loadBefore,
    };
  } catch (error) {
    const stderr = web.map((s, i) => `${WEB[i]}: ${s.stderr().slice(-800)}`).join('\n      ');
    throw new Error(`${(error as Error).message}\n      ${stderr}`, { cause: error });
  } finally {
    for (const server of web) await server.stop();
    for (const worker of workers) await kill(worker.child);
    if (redis) await kill(redis.child);
    killAll(); // a worker that was still starting when something failed
    await cluster?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
