import { Job, Queue, QueueEvents, type JobType } from 'bullmq';
import type { SweepJob } from './expand-grid';
import type { SweepJobRunner } from './local-pool';
import type { SweepJobInput, SweepJobResult } from './run-sweep-job';
import { NO_KEYS_ON_QUEUE } from './queue-keys';

/** The queue every Loop Lab sweep job goes through; `npm run worker` processes it. */
export const SWEEP_QUEUE = 'loop-lab-sweeps';

/** The payload of one queued job (a local pool task without a key: a key never goes into Redis). */
export interface QueuedSweepJob {
  sweepId: string;
  job: SweepJob;
  replay?: SweepJobInput['replay'];
}

/**
 * How often a job waited on is also read from the queue's own state. Its completion event is the
 * fast path, but an event can be missed — the event reader reconnecting before it had read any
 * event starts again from the stream's end, and a completion in between is never delivered — and
 * a result sitting in Redis must never leave its sweep waiting.
 */
export const JOB_STATE_POLL_MS = 2_000;

/** BullMQ connection options from a redis:// URL (ioredis parses it). */
export function redisConnection(url: string): { url: string; maxRetriesPerRequest: null } {
  // BullMQ's blocking commands need maxRetriesPerRequest null on the worker side; harmless here.
  return { url, maxRetriesPerRequest: null };
}

/**
 * Sweep jobs through BullMQ on Redis: each job is queued with a deterministic id, any number
 * of stateless workers (`npm run worker`, on any machine that reaches Redis) run it, and the
 * result — the run's log and metrics — comes back through the queue: from the completion
 * event, or from the job's own state in Redis, read every JOB_STATE_POLL_MS, whichever comes
 * first. Cancelling removes the sweep's jobs still waiting; a job already running finishes and
 * its result is dropped.
 */
export async function createBullmqRunner({ redisUrl }: { redisUrl: string }): Promise<SweepJobRunner> {
  const connection = redisConnection(redisUrl);
  const queue = new Queue<QueuedSweepJob, SweepJobResult>(SWEEP_QUEUE, { connection });
  const events = new QueueEvents(SWEEP_QUEUE, { connection });
  // Every job in flight waits on these two: one listener each.
  queue.setMaxListeners(0);
  events.setMaxListeners(0);
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  const safe = redisUrl.replace(/\/\/[^@/]*@/, '//…@');

  return {
    kind: 'bullmq',
    describe: `BullMQ on ${safe}`,
    async run(input, signal) {
      if (signal?.aborted) throw abortError();
      if (input.apiKey !== undefined) throw new Error(NO_KEYS_ON_QUEUE);
      const jobId = `${input.sweepId}-${input.job.index}`;
      const data: QueuedSweepJob = {
        sweepId: input.sweepId,
        job: input.job,
        ...(input.replay ? { replay: input.replay } : {}),
      };
      // A result nobody collects (its sweep's process died, or cancelled it while the job ran)
      // is removed by BullMQ an hour later; removeDeadSweepJobs collects such jobs at startup.
      const job = await queue.add('run', data, {
        jobId,
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 3600 },
      });
      const settled = new AbortController();
      const finished = job.waitUntilFinished(events) as Promise<SweepJobResult>;
      const read = readWhenFinished(queue, jobId, settled.signal);
      const aborted = new Promise<never>((_, reject) => {
        signal?.addEventListener(
          'abort',
          () => {
            // Only a job nobody has taken yet can be removed; a running one is left to finish.
            void job.remove().catch(() => {});
            reject(abortError());
          },
          { once: true },
        );
      });
      try {
        const result = await Promise.race([finished, read, aborted]);
        await job.remove().catch(() => {});
        return result;
      } finally {
        settled.abort();
        // The losers of the race settle later (or never): nobody waits on them.
        finished.catch(() => undefined);
        read.catch(() => undefined);
      }
    },
    async close() {
      await events.close();
      await queue.close();
    },
  };
}

/** The states a job of a dead sweep can be left in (an active one is locked by its worker). */
const LEFT_OVER_STATES: JobType[] = [
  'wait',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
];

/**
 * Removes the queue's jobs of sweeps that are over: after a crash the workers go on taking the
 * dead sweep's jobs and leave their results in Redis, and its waiting jobs would still run.
 * A job's id is `<sweep id>-<job index>`; `isDead` says which sweeps are over (sweeps it does
 * not know, of another data folder on the same Redis, are left alone). Returns how many.
 */
export async function removeDeadSweepJobs({
  redisUrl,
  isDead,
}: {
  redisUrl: string;
  isDead: (sweepId: string) => Promise<boolean>;
}): Promise<number> {
  const queue = new Queue<QueuedSweepJob, SweepJobResult>(SWEEP_QUEUE, {
    connection: redisConnection(redisUrl),
  });
  try {
    await queue.waitUntilReady();
    const ids = await queue.getRanges(LEFT_OVER_STATES, 0, -1);
    let removed = 0;
    for (const jobId of new Set(ids)) {
      const cut = jobId.lastIndexOf('-');
      if (cut <= 0 || !(await isDead(jobId.slice(0, cut)))) continue;
      removed += (await queue.remove(jobId)) === 1 ? 1 : 0;
    }
    return removed;
  } finally {
    await queue.close();
  }
}

/**
 * Resolves with the job's result once Redis holds it as completed (rejects once failed, or when
 * the job is gone), reading its state every JOB_STATE_POLL_MS until `stop` aborts.
 */
async function readWhenFinished(
  queue: Queue<QueuedSweepJob, SweepJobResult>,
  jobId: string,
  stop: AbortSignal,
): Promise<SweepJobResult> {
  while (!stop.aborted) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, JOB_STATE_POLL_MS);
      stop.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    if (stop.aborted) break;
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = await Job.fromId<QueuedSweepJob, SweepJobResult>(queue, jobId);
      if (!job) break;
      if (state === 'failed') throw new Error(job.failedReason || `job ${jobId} failed`);
      return job.returnvalue;
    }
    if (state === 'unknown') throw new Error(`job ${jobId} left the queue before its result was read`);
  }
  return new Promise<never>(() => undefined);
}

function abortError(): Error {
  const error = new Error('the sweep was cancelled');
  error.name = 'AbortError';
  return error;
}
