import 'server-only';
import { processEnv } from '@/lib/config/server-env';
import { randomUUID } from 'node:crypto';
import { trustedEventJson, type RunConfig } from '@/lib/protocol';
import { createRedactor, runSecrets } from '@/lib/runtime/redact-secrets';
import { eventPages, type RunStore } from '@/lib/store';
import { HttpError } from './http-error';
import type { KeyedRuns } from './keyed-runs';
import type { RunChannels } from './run-channels';
import { replayFinished } from './run-fan-out';
import { jobFailedWhy, type RunJob } from './run-jobs';
import type { RunListener, RunRegistry } from './run-registry';

/**
 * However announcements go, a follower reads the store at least this often (wall time): a run
 * closed by a process that does not announce (a store opening that closes a gone worker's runs)
 * still reaches its readers. It only decides when a reader looks, never what a run records.
 */
export const FOLLOW_BACKSTOP_MS = 2_000;
/** How long one "a reader follows this run" lasts in Redis: renewed every FOLLOW_BACKSTOP_MS while it does. */
const WATCHED_TTL_MS = 3 * FOLLOW_BACKSTOP_MS;

/** Why a key sent with a swap cannot reach a run that executes in another process. */
export const SWAP_KEY_ELSEWHERE =
  'apiKey: this run executes in another process (a queue worker, or the web instance its own key was sent to), ' +
  'and a key sent with a request stays in the memory of the process that took it; to go on with this key, fork the run ' +
  'from this point with it (POST /api/runs with fork and apiKey): the fork executes in the instance that receives the key';

export interface QueuedRunRegistryOptions {
  store: RunStore;
  channels: RunChannels;
  /** Puts a run on the run queue (its job id is the run's id, so a run is queued at most once). */
  enqueue: (job: RunJob) => Promise<void>;
  /** Executes here the runs that bring their own key (lib/server/keyed-runs.ts): never queued. */
  keyed: KeyedRuns;
  /** Tells of each run whose job failed on a worker, and why (lib/server/run-jobs.ts). */
  onFailed?: (listener: (runId: string, why: string) => void) => void;
}

/**
 * The run registry of a web instance whose runs execute on queue workers (`npm run worker`,
 * lib/server/run-jobs.ts): it creates each run in the shared store and queues it; it reads any
 * run's events from the store, following the workers' announcements (lib/server/run-channels.ts)
 * until the terminate, so any instance serves any run's stream; and it hands control messages to
 * the worker holding the run through Redis. The store stays the source: an event is sent only
 * once the store holds it, in seq order, and whatever an announcement missed is read on the next.
 */
export function createQueuedRunRegistry({
  store,
  channels,
  enqueue,
  keyed,
  onFailed,
}: QueuedRunRegistryOptions): RunRegistry {
  /** Ends a run no worker will execute, saying why (the store closes it only where this instance may). */
  const close = async (runId: string, why: string): Promise<void> => {
    console.error(`[loop-lab] run ${runId}: ${why}`);
    if ((await store.closeInterruptedRuns({ runId, why })).length > 0) await channels.announce(runId, -1);
  };
  const failed = (runId: string) => (error: unknown) =>
    console.error(`[loop-lab] run ${runId}: could not be ended: ${(error as Error).message}`);
  const queue = (job: RunJob): void => {
    enqueue(job).catch((error: unknown) =>
      close(
        job.runId,
        `the run could not be queued for a worker (${(error as Error).message}), so none executed it`,
      ).catch(failed(job.runId)),
    );
  };
  // A job that failed leaves its run for the instance that created it (its owner still) to end.
  onFailed?.((runId, why) => {
    void (async () => {
      if ((await store.getRun(runId))?.summary.status === 'running') await close(runId, jobFailedWhy(why));
    })().catch(failed(runId));
  });

  /**
   * Sends a run's events from the store, following the workers' announcements to its terminate;
   * resolves once what the store holds now is sent. A reader that `watching` says so on Redis
   * while it follows, so the worker does not abort the run as abandoned (lib/server/run-jobs.ts);
   * the registry's own waits do not.
   */
  const follow = async ({
    runId,
    afterSeq,
    listener,
    watching,
  }: {
    runId: string;
    afterSeq: number;
    listener: RunListener;
    watching: boolean;
  }): Promise<() => void> => {
    const run = await store.getRun(runId);
    if (!run) throw new HttpError(404, `No run with id "${runId}"`);
    if (run.summary.status !== 'running') {
      await replayFinished(store, runId, afterSeq, listener);
      return () => {};
    }
    let last = afterSeq;
    let ended = false;
    let unfollow: (() => void) | undefined;
    const end = (): void => {
      if (ended) return;
      ended = true;
      clearInterval(backstop);
      unfollow?.();
    };
    /** Sends what the store holds after the last event sent; at the terminate, ends the stream. */
    const readOnce = async (): Promise<void> => {
      if (ended) return;
      for await (const page of eventPages(store, { runId, afterSeq: last })) {
        for (const row of page) {
          if (ended) return;
          const event = trustedEventJson(row.body);
          listener.onEvent(event);
          last = event.seq;
          if (event.event === 'terminate') {
            end();
            listener.onEnd();
            return;
          }
        }
      }
    };
    // One read at a time, in order: a wake-up during a read reads again after it.
    let reading: Promise<void> = Promise.resolve();
    const catchUp = (): Promise<void> =>
      (reading = reading.then(readOnce).catch((error: unknown) => {
        console.error(`[loop-lab] run ${runId}: a reader was dropped:`, (error as Error).message);
        end();
      }));
    const say = (): void => {
      if (watching && !ended)
        void channels.watching(runId, WATCHED_TTL_MS).catch((error: unknown) => {
          console.error(`[loop-lab] run ${runId}: could not say it is watched:`, (error as Error).message);
        });
    };
    const backstop = setInterval(() => {
      say();
      void catchUp();
    }, FOLLOW_BACKSTOP_MS);
    backstop.unref?.();
    say();
    // Subscribed first, then read: whatever is stored after the read is announced to it.
    try {
      unfollow = await channels.follow(runId, () => void catchUp());
    } catch (error) {
      console.error(
        `[loop-lab] run ${runId}: could not follow it on Redis (the store is read every ${FOLLOW_BACKSTOP_MS} ms):`,
        (error as Error).message,
      );
    }
    await catchUp();
    if (ended) unfollow?.();
    return end;
  };

  const registry: RunRegistry = {
    async startRun({ config, apiKey, fork, cassette }) {
      // A key goes only where its owner sent it: the run executes in this process, never on a worker.
      if (apiKey !== undefined) return keyed.start({ config: keyedConfig(config), apiKey, fork, cassette });
      const id = randomUUID();
      const redactor = createRedactor({ secrets: runSecrets({ env: processEnv() }) });
      await store.createRun({
        id,
        config: redactor.value(config),
        ...(fork ? { forkedFrom: { runId: fork.parentRunId, turn: fork.atTurn } } : {}),
      });
      queue({ runId: id, ...(fork ? { fork } : {}), ...(cassette ? { cassette } : {}) });
      return { id };
    },

    subscribe({ runId, afterSeq = -1, listener }) {
      return follow({ runId, afterSeq, listener, watching: true });
    },

    async control({ runId, message }) {
      if (keyed.executesHere(runId)) return keyed.control(runId, message);
      const run = await store.getRun(runId);
      if (!run) throw new HttpError(404, `No run with id "${runId}"`);
      if (run.summary.status !== 'running')
        throw new HttpError(
          409,
          `Run "${runId}" has already finished (${run.summary.reason ?? 'unknown'}); start a new run instead`,
        );
      if (message.action === 'swap' && message.target.apiKey !== undefined)
        throw new HttpError(400, 'The swap cannot take its key to this run', [SWAP_KEY_ELSEWHERE]);
      await channels.sendControl(runId, message);
    },

    async isLive(runId) {
      return (await store.getRun(runId))?.summary.status === 'running';
    },

    // The worker writes a watched run's events within FLUSH_WATCHED_MS; a run executing here is written now.
    async writePending(runId) {
      if (keyed.executesHere(runId)) await keyed.writePending(runId);
    },

    whenFinished(runId) {
      return untilEvent(follow, store, runId, (event) => event === 'terminate');
    },

    async whenLogged(runId) {
      if (((await store.getRun(runId))?.summary.event_count ?? 0) > 0) return;
      await untilEvent(follow, store, runId, () => true);
    },

    async resumeInterrupted() {
      // Runs a gone process left running (a web instance before queue mode, a worker on this host)
      // go back on the queue; one whose job is still queued is not queued twice (job id = run id).
      const resumed: string[] = [];
      for (const { id } of await store.claimInterruptedRuns()) {
        queue({ runId: id });
        resumed.push(id);
      }
      return { resumed, closed: [] };
    },
  };
  return registry;
}

/**
 * A config sent with a key, as stored and run: its key comes from the request, so the store
 * knows the run cannot be taken up by another process (lib/protocol/restart.ts).
 */
function keyedConfig(config: RunConfig): RunConfig {
  return { ...config, provider: { ...config.provider, keySource: 'request' } };
}

/** Resolves at the first new event of the run that `matches` (at once when it is not running). */
async function untilEvent(
  follow: (options: {
    runId: string;
    afterSeq: number;
    listener: RunListener;
    watching: boolean;
  }) => Promise<() => void>,
  store: RunStore,
  runId: string,
  matches: (event: string) => boolean,
): Promise<void> {
  const run = await store.getRun(runId);
  if (run?.summary.status !== 'running') return;
  await new Promise<void>((resolve, reject) => {
    const reader: { stop?: () => void; done?: boolean } = {};
    const finish = (): void => {
      reader.done = true;
      reader.stop?.();
      resolve();
    };
    follow({
      runId,
      afterSeq: run.summary.event_count - 1,
      listener: { onEvent: (event) => matches(event.event) && finish(), onEnd: finish },
      watching: false,
    }).then((stop) => {
      reader.stop = stop;
      if (reader.done) stop();
    }, reject);
  });
}
