import { serverEnv } from '@/lib/config/server-env';
import { getStore } from '@/lib/store';
import { SWEEP_QUEUE } from '@/lib/sweeps/bullmq-runner';
import { shownUrl, startSweepWorker, workerArgs } from '@/lib/sweeps/queue-worker-main';
import { createLocalRunRegistry, unwatchedMs } from '@/lib/server/get-run-registry';
import { benchDiagnosticsEnabled } from '@/lib/server/bench-diagnostics';
import { answerBenchDiagnostics } from '@/lib/server/bench-diagnostics-channel';
import { createRunChannels } from '@/lib/server/run-channels';
import { RUN_LOCK_MS, RUN_QUEUE, startRunWorker } from '@/lib/server/run-jobs';
import { watchKeyedHolds } from '@/lib/server/keyed-runs';

/**
 * `npm run worker`: a stateless worker on the Redis named by LOOP_LAB_REDIS_URL, taking both
 * queues: sweep jobs (run on this machine's cores, results back through the queue) and runs
 * started through any web instance (executed here with the same engine, their events written to
 * the shared store — LOOP_LAB_DATA_DIR — and announced on Redis; see docs/deploy.md). Start as
 * many as you like; stop one with Ctrl-C (its runs in flight finish first), or lose one: its runs
 * go on another worker after LOOP_LAB_RUN_LOCK_MS (default RUN_LOCK_MS). `--no-runs`: sweeps only,
 * for a worker that does not open the web instances' store. `--log-requests`: a line for each
 * vendor request a run sends from this worker.
 */
async function main(): Promise<void> {
  const { url, threads, ratePerMin, runs: takeRuns, logRequests } = workerArgs();
  const lockMs = serverEnv().runLockMs ?? RUN_LOCK_MS;
  const stopSweeps = await startSweepWorker({ url, threads, ratePerMin });
  const channels = takeRuns ? createRunChannels({ redisUrl: url }) : undefined;
  const runs = channels
    ? startRunWorker({
        redisUrl: url,
        store: getStore(),
        registry: createLocalRunRegistry(
          logRequests
            ? { onVendorRequest: (runId) => console.log(`worker: run ${runId}: a vendor request`) }
            : {},
        ),
        channels,
        concurrency: 64,
        lockMs,
        unwatchedMs: unwatchedMs(),
      })
    : undefined;
  // A run a web instance executed with its own key is ended here, saying why, once that instance is gone.
  const stopHolds = channels ? watchKeyedHolds({ store: getStore(), channels }) : undefined;
  await runs?.waitUntilReady();
  // LOOP_LAB_BENCH_DIAGNOSTICS=1 (`npm run bench` only): this worker's watchdog lateness and
  // event-loop delay, readable on Redis, since a worker serves no GET /api/bench-diagnostics.
  const stopDiagnostics =
    runs && benchDiagnosticsEnabled() ? await answerBenchDiagnostics({ redisUrl: url }) : undefined;
  console.log(
    `worker: ${threads} thread${threads === 1 ? '' : 's'} on queue ${SWEEP_QUEUE}, ` +
      `${runs ? `runs on queue ${RUN_QUEUE}` : 'no runs (--no-runs)'}, at ${shownUrl(url)}`,
  );
  const stop = async (): Promise<void> => {
    stopHolds?.();
    await runs?.close();
    await stopDiagnostics?.();
    await stopSweeps();
    await channels?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(`worker: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
