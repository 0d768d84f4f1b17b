import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Cassette } from '@/lib/protocol';
import type { ForkStart } from '@/lib/runtime/plan-fork';
import { RunLeaseLost, type RunStore } from '@/lib/store';
import type { RunChannels } from './run-channels';
import type { LocalRunRegistry } from './run-registry';

/** The BullMQ queue runs wait on for a worker (sweeps have their own: lib/sweeps/bullmq-runner.ts). */
export const RUN_QUEUE = 'loop-lab-runs';

/**
 * A queued run. Its config is the one the store holds (the store is the source); the job
 * carries only what the POST gave that the store does not keep: a fork's starting point and a
 * replay's cassette. Never a key: workers take vendor keys from their environment.
 */
export interface RunJob {
  runId: string;
  fork?: ForkStart;
  cassette?: Cassette;
}

/**
 * What the worker says a job came to (kept with the finished job in Redis). 'lost': the worker
 * stalled past its lock, another took the run over, and this one stopped it here without a word.
 */
export type RunJobOutcome = 'ended' | 'already ended' | 'closed' | 'lost';

/**
 * How long a worker's hold on a run's job lasts without renewal (BullMQ's lock; renewed every
 * half of it while the worker lives). A worker that stops (SIGKILL, a lost machine) lets its
 * locks lapse, and BullMQ's stalled-job check, every this long, hands each job to another worker,
 * which takes the run over and resumes it from its stored log (or ends it saying why).
 */
export const RUN_LOCK_MS = 30_000;

const redisConnection = (url: string): { url: string; maxRetriesPerRequest: null } => ({
  url,
  maxRetriesPerRequest: null,
});

/** Why a run is closed when the run queue gave up on its job: the job's error, and that no worker goes on with it. */
export function jobFailedWhy(error: string): string {
  return `the run queue gave up on its job (${error}), so no worker executes it any more`;
}

/** The web side's queue: puts a run on it once (the job id is the run id). */
export function createRunQueue({ redisUrl }: { redisUrl: string }): {
  enqueue: (job: RunJob) => Promise<void>;
  /** Calls `listener` with each run whose job failed, and why. */
  onFailed: (listener: (runId: string, why: string) => void) => void;
  close: () => Promise<void>;
} {
  const queue = new Queue<RunJob, RunJobOutcome>(RUN_QUEUE, { connection: redisConnection(redisUrl) });
  const events = new QueueEvents(RUN_QUEUE, { connection: redisConnection(redisUrl) });
  return {
    onFailed(listener) {
      events.on('failed', ({ jobId, failedReason }) => listener(jobId, failedReason));
    },
    async enqueue(job) {
      await queue.add('run', job, {
        jobId: job.runId,
        removeOnComplete: { count: 1_000 },
        removeOnFail: { count: 1_000 },
      });
    },
    close: async () => {
      await events.close();
      await queue.close();
    },
  };
}

/**
 * Executes one queued run here, with the same engine as a run in the web process: the store's
 * record is taken over (whoever wrote it last: the web instance that created it, or a worker
 * that stopped), the run is started, or resumed from its stored log, on `registry`; each batch
 * the store takes is announced, control messages sent through any web instance are applied,
 * and the job ends when the run's terminate is stored.
 */
export async function executeRunJob({
  job,
  store,
  registry,
  channels,
  unwatchedMs,
}: {
  job: RunJob;
  store: RunStore;
  registry: LocalRunRegistry;
  channels: RunChannels;
  /** A run no reader on any web instance has followed for this long is aborted as abandoned. */
  unwatchedMs: number;
}): Promise<RunJobOutcome> {
  const { runId } = job;
  const taken = await store.takeOverRun({ runId });
  if (!taken) {
    if (await store.getRun(runId)) return 'already ended';
    // The job fails, and the web instance that queued the run ends it with this reason.
    throw new Error(
      `the worker that took it does not share the web instances' store (run ${runId} is not in its store): ` +
        `a worker that takes runs must open the same store (LOOP_LAB_DATA_DIR), or be started with --no-runs`,
    );
  }
  const outcome = await registry.executeTakenOver(taken, {
    ...(job.fork ? { fork: job.fork } : {}),
    ...(job.cassette ? { cassette: job.cassette } : {}),
  });
  if (outcome === 'lost') return 'lost';
  if (outcome === 'closed') {
    await channels.announce(runId, -1);
    return 'closed';
  }
  return await attendRun({ runId, afterSeq: taken.eventCount - 1, registry, channels, unwatchedMs });
}

/**
 * Serves a run executing on `registry` in this process to every web instance until its
 * terminate is stored: each batch the store takes after `afterSeq` is announced on Redis, the
 * control messages sent through any instance are applied, and a run no reader on any instance
 * follows for `unwatchedMs` is aborted as abandoned. For a queue worker's run, and for a run a
 * web instance executes itself because it brought its own key (lib/server/keyed-runs.ts).
 */
export async function attendRun({
  runId,
  afterSeq,
  registry,
  channels,
  unwatchedMs,
}: {
  runId: string;
  afterSeq: number;
  registry: LocalRunRegistry;
  channels: RunChannels;
  unwatchedMs: number;
}): Promise<'ended' | 'lost'> {
  // Each batch reaches this listener once the store holds it: one announcement per batch.
  let last = -1;
  let announcing = false;
  const announce = (): void => {
    announcing = false;
    channels.announce(runId, last).catch((error: unknown) => {
      console.error(`[loop-lab] run ${runId}: an announcement failed:`, (error as Error).message);
    });
  };
  const unsubscribe = await registry.subscribe({
    runId,
    afterSeq,
    listener: {
      onEvent: (event) => {
        last = event.seq;
        if (!announcing) {
          announcing = true;
          queueMicrotask(announce);
        }
      },
      onEnd: () => {},
    },
  });
  let released: 'ended' | 'lost' | undefined;
  const stopControls = await channels.takeControls(runId, (message) => {
    registry.control({ runId, message }).catch((error: unknown) => {
      // Taken by a worker that has lost the run: queued again, for the one that holds it now.
      if (released === 'lost') return void channels.sendControl(runId, message).catch(() => {});
      console.error(`[loop-lab] run ${runId}: a control message was refused:`, (error as Error).message);
    });
  });
  const abandonment = watchForReaders({ runId, registry, channels, unwatchedMs });
  try {
    released = await registry.whenReleased(runId);
  } finally {
    clearInterval(abandonment);
    unsubscribe();
    // A lost run's controls are the new holder's: left queued for it.
    await stopControls({ keepQueued: released === 'lost' });
  }
  if (released === 'lost') return 'lost';
  await channels.announce(runId, last);
  return 'ended';
}

/**
 * The web instances' readers say on Redis that they follow a run (lib/server/queued-run-registry.ts);
 * once none has for `unwatchedMs` (wall time, as a run in the web process is abandoned), the run is
 * aborted as abandoned, as it would be in one process.
 */
function watchForReaders({
  runId,
  registry,
  channels,
  unwatchedMs,
}: {
  runId: string;
  registry: LocalRunRegistry;
  channels: RunChannels;
  unwatchedMs: number;
}): ReturnType<typeof setInterval> {
  let lastWatched = performance.now();
  const timer = setInterval(
    () => {
      void (async () => {
        const watched = await channels.isWatched(runId);
        const now = performance.now();
        if (watched) lastWatched = now;
        else if (now - lastWatched >= unwatchedMs && (await registry.isLive(runId))) {
          clearInterval(timer);
          await registry.control({ runId, message: { action: 'abort', reason: 'abandoned' } });
        }
      })().catch((error: unknown) => console.error(`[loop-lab] run ${runId}: ${(error as Error).message}`));
    },
    Math.min(1_000, unwatchedMs),
  );
  return timer;
}

/**
 * The run side of `npm run worker`: takes runs off the run queue, `concurrency` at a time. A job
 * BullMQ gives up on (stalled again and again, or an executor that threw) has its run closed
 * with a terminate that says why, so no run stays `running`.
 */
export function startRunWorker({
  redisUrl,
  store,
  registry,
  channels,
  concurrency,
  lockMs = RUN_LOCK_MS,
  unwatchedMs,
}: {
  redisUrl: string;
  store: RunStore;
  registry: LocalRunRegistry;
  channels: RunChannels;
  concurrency: number;
  lockMs?: number;
  unwatchedMs: number;
}): Worker<RunJob, RunJobOutcome> {
  const worker = new Worker<RunJob, RunJobOutcome>(
    RUN_QUEUE,
    (job) =>
      executeRunJob({ job: job.data, store, registry, channels, unwatchedMs }).catch((error: unknown) => {
        // Another worker holds the run now: this job's end is not this worker's to record.
        if (error instanceof RunLeaseLost) return 'lost' as const;
        throw error;
      }),
    {
      connection: redisConnection(redisUrl),
      concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 3,
    },
  );
  // BullMQ's own troubles (a lock it could not renew after a stall, say) as one line each.
  worker.on('error', (error) => console.error(`worker: the run queue: ${error.message}`));
  worker.on('failed', (job, error) => {
    if (!job) return;
    const runId = job.data.runId;
    console.error(`worker: run ${runId} failed: ${error.message}`);
    void (async () => {
      if (!(await store.takeOverRun({ runId }))) return;
      await store.closeInterruptedRuns({ runId, why: jobFailedWhy(error.message) });
      await channels.announce(runId, -1);
    })().catch((again: unknown) => console.error(`worker: run ${runId}: ${(again as Error).message}`));
  });
  return worker;
}
