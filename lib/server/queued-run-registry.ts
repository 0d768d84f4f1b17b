import 'server-only';
import { processEnv } from '@/lib/config/server-env';
import { randomUUID } from 'node:crypto';
import { trustedEventJson } from '@/lib/protocol';
import { createRedactor, runSecrets } from '@/lib/runtime/redact-secrets';
import { eventPages, type RunStore } from '@/lib/store';
import { HttpError } from './http-error';
import type { RunChannels } from './run-channels';
import { replayFinished } from './run-fan-out';
import type { RunJob } from './run-jobs';
import type { RunListener, RunRegistry } from './run-registry';

/**
 * However announcements go, a follower reads the store at least this often (wall time): a run
 * closed by a process that does not announce (a store opening that closes a gone worker's runs)
 * still reaches its readers. It only decides when a reader looks, never what a run records.
 */
export const FOLLOW_BACKSTOP_MS = 2_000;
/** How long one "a reader follows this run" lasts in Redis: renewed every FOLLOW_BACKSTOP_MS while it does. */
const WATCHED_TTL_MS = 3 * FOLLOW_BACKSTOP_MS;

/** Why a key sent with a run cannot go to a worker. */
export const NO_KEYS_ON_RUN_QUEUE =
  'apiKey: runs execute on queue workers here (LOOP_LAB_REDIS_URL is set), and a key sent with a request ' +
  'stays in the memory of the process that took it; leave it out, and the workers take the vendor key from their environment';

export interface QueuedRunRegistryOptions {
  store: RunStore;
  channels: RunChannels;
  /** Puts a run on the run queue (its job id is the run's id, so a run is queued at most once). */
  enqueue: (job: RunJob) => Promise<void>;
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
  onFailed,
}: QueuedRunRegistryOptions): RunRegistry {
  /** Ends a run no worker will execute, saying why (the store closes it only where this instance may). */
  const close = (runId: string, why: string): void => {
    console.error(`[loop-lab] run ${runId}: ${why}`);
    if (store.closeInterruptedRuns({ runId, why }).length > 0)
      void channels.announce(runId, -1).catch(() => {});
  };
  const queue = (job: RunJob): void => {
    enqueue(job).catch((error: unknown) =>
      close(job.runId, `it could not be queued for a worker (${(error as Error).message})`),
    );
  };
  // A job that failed leaves its run for the instance that created it (its owner still) to end.
  onFailed?.((runId, why) => {
    if (store.getRun(runId)?.summary.status === 'running')
      close(runId, `its job on the run queue failed: ${why}`);
  });

  /**
   * Sends a run's events from the store, following the workers' announcements to its terminate.
   * A reader that `watching` says so on Redis while it follows, so the worker does not abort the
   * run as abandoned (lib/server/run-jobs.ts); the registry's own waits do not.
   */
  const follow = ({
    runId,
    afterSeq,
    listener,
    watching,
  }: {
    runId: string;
    afterSeq: number;
    listener: RunListener;
    watching: boolean;
  }): (() => void) => {
    const run = store.getRun(runId);
    if (!run) throw new HttpError(404, `No run with id "${runId}"`);
    if (run.summary.status !== 'running') {
      replayFinished(store, runId, afterSeq, listener);
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
    const catchUp = (): void => {
      if (ended) return;
      try {
        for (const page of eventPages(store, { runId, afterSeq: last })) {
          for (const row of page) {
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
      } catch (error) {
        console.error(`[loop-lab] run ${runId}: a reader was dropped:`, (error as Error).message);
        end();
      }
    };
    const say = (): void => {
      if (watching && !ended)
        void channels.watching(runId, WATCHED_TTL_MS).catch((error: unknown) => {
          console.error(`[loop-lab] run ${runId}: could not say it is watched:`, (error as Error).message);
        });
    };
    const backstop = setInterval(() => {
      say();
      catchUp();
    }, FOLLOW_BACKSTOP_MS);
    backstop.unref?.();
    say();
    catchUp();
    if (!ended) {
      channels.follow(runId, catchUp).then(
        (stop) => {
          if (ended) return stop();
          unfollow = stop;
          catchUp(); // what was stored before the subscription took hold
        },
        (error: unknown) =>
          console.error(
            `[loop-lab] run ${runId}: could not follow it on Redis (the store is read every ${FOLLOW_BACKSTOP_MS} ms):`,
            (error as Error).message,
          ),
      );
    }
    return end;
  };

  const registry: RunRegistry = {
    startRun({ config, apiKey, fork, cassette }) {
      if (apiKey !== undefined) throw new HttpError(400, 'The run cannot be queued', [NO_KEYS_ON_RUN_QUEUE]);
      const id = randomUUID();
      const redactor = createRedactor({ secrets: runSecrets({ env: processEnv() }) });
      store.createRun({
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

    control({ runId, message }) {
      const run = store.getRun(runId);
      if (!run) throw new HttpError(404, `No run with id "${runId}"`);
      if (run.summary.status !== 'running')
        throw new HttpError(
          409,
          `Run "${runId}" has already finished (${run.summary.reason ?? 'unknown'}); start a new run instead`,
        );
      if (message.action === 'swap' && message.target.apiKey !== undefined)
        throw new HttpError(400, 'The swap cannot be sent to the worker', [NO_KEYS_ON_RUN_QUEUE]);
      channels.sendControl(runId, message).catch((error: unknown) => {
        console.error(`[loop-lab] run ${runId}: a control message was not queued:`, (error as Error).message);
      });
    },

    isLive(runId) {
      return store.getRun(runId)?.summary.status === 'running';
    },

    // The worker writes a watched run's events within FLUSH_WATCHED_MS; nothing waits here.
    writePending() {},

    whenFinished(runId) {
      return untilEvent(follow, store, runId, (event) => event === 'terminate');
    },

    whenLogged(runId) {
      if ((store.getRun(runId)?.summary.event_count ?? 0) > 0) return Promise.resolve();
      return untilEvent(follow, store, runId, () => true);
    },

    resumeInterrupted() {
      // Runs a gone process left running (a web instance before queue mode, a worker on this host)
      // go back on the queue; one whose job is still queued is not queued twice (job id = run id).
      const resumed: string[] = [];
      for (const { id } of store.claimInterruptedRuns()) {
        queue({ runId: id });
        resumed.push(id);
      }
      return { resumed, closed: [] };
    },
  };
  return registry;
}

/** Resolves at the first new event of the run that `matches` (at once when it is not running). */
function untilEvent(
  follow: (options: {
    runId: string;
    afterSeq: number;
    listener: RunListener;
    watching: boolean;
  }) => () => void,
  store: RunStore,
  runId: string,
  matches: (event: string) => boolean,
): Promise<void> {
  const run = store.getRun(runId);
  if (run?.summary.status !== 'running') return Promise.resolve();
  return new Promise((resolve) => {
    const reader: { stop?: () => void; done?: boolean } = {};
    const finish = (): void => {
      reader.done = true;
      reader.stop?.();
      resolve();
    };
    reader.stop = follow({
      runId,
      afterSeq: run.summary.event_count - 1,
      listener: { onEvent: (event) => matches(event.event) && finish(), onEnd: finish },
      watching: false,
    });
    if (reader.done) reader.stop();
  });
}
