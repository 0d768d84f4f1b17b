import type { ControlMessage } from '@/lib/runtime/types';
import { createSubscriber, openRedis } from './redis-connection';

/**
 * What goes through Redis for runs on queue workers (lib/server/run-jobs.ts). Not the events:
 * the store keeps every event with its seq, so a reader on any web instance reads them there;
 * Redis only carries wake-ups ("the store now holds run r's events through seq n"), and the
 * control messages a web instance takes for the worker that holds the run.
 *
 * Controls wait in a list per run (so one sent while the run is still queued is applied when a
 * worker starts it, in the order sent), with a wake-up on its channel for the worker holding it.
 */
export interface RunChannels {
  /** Says that the store holds the run's events through `seq`. */
  announce(runId: string, seq: number): Promise<void>;
  /**
   * Calls `wake` on every announcement of the run (and after a lost connection comes back,
   * since announcements may have been missed meanwhile). Resolves once Redis has the
   * subscription, with the function that ends it.
   */
  follow(runId: string, wake: () => void): Promise<() => void>;
  /** Says that a reader follows the run, for the next `ttlMs` (a worker aborts a run nobody watches). */
  watching(runId: string, ttlMs: number): Promise<void>;
  /** Does any reader on any instance follow the run now? */
  isWatched(runId: string): Promise<boolean>;
  /** Queues a control message for the worker that holds (or will hold) the run. */
  sendControl(runId: string, message: ControlMessage): Promise<void>;
  /**
   * Hands the run's queued control messages to `apply`, in the order sent: those waiting now,
   * then each as it comes. Resolves with the function that stops, and drops the ones left (but
   * with `keepQueued`: a worker that lost the run leaves them for the one that holds it now).
   */
  takeControls(
    runId: string,
    apply: (message: ControlMessage) => void,
  ): Promise<(options?: { keepQueued?: boolean }) => Promise<void>>;
  /**
   * Says that a web instance executes the run in its own memory (it brought its own key), for the
   * next `ttlMs`: renewed while it runs. `holder` names the process (host and pid), never a key.
   */
  hold(runId: string, holder: string, ttlMs: number): Promise<void>;
  /** The run no longer executes in a web instance's memory (it ended there). */
  release(runId: string): Promise<void>;
  /** The runs said to execute in web instances, each with its holder and whether its hold has lapsed. */
  heldRuns(): Promise<{ runId: string; holder: string; lapsed: boolean }[]>;
  close(): Promise<void>;
}

export const RUN_CHANNEL_PREFIX = 'loop-lab:run:';
const storedChannel = (runId: string): string => `${RUN_CHANNEL_PREFIX}${runId}:stored`;
const controlKey = (runId: string): string => `${RUN_CHANNEL_PREFIX}${runId}:controls`;
const watchedKey = (runId: string): string => `${RUN_CHANNEL_PREFIX}${runId}:watched`;
const holderKey = (runId: string): string => `${RUN_CHANNEL_PREFIX}${runId}:holder`;
/** The runs executing in web instances, each with its holder (each one's hold is its holderKey, which lapses). */
const HELD_RUNS = 'loop-lab:runs:held-in-web';

/** Run channels on the Redis at `redisUrl`: one connection for commands, one for subscriptions. */
export function createRunChannels({ redisUrl }: { redisUrl: string }): RunChannels {
  const commands = openRedis(redisUrl, { maxRetriesPerRequest: null });
  const subscriber = createSubscriber(redisUrl);
  const subscribe = (channel: string, wake: () => void): Promise<() => void> =>
    subscriber.subscribe(channel, () => wake());

  return {
    async announce(runId, seq) {
      await commands.publish(storedChannel(runId), String(seq));
    },
    follow(runId, wake) {
      return subscribe(storedChannel(runId), wake);
    },
    async watching(runId, ttlMs) {
      await commands.set(watchedKey(runId), '1', 'PX', ttlMs);
    },
    async isWatched(runId) {
      return (await commands.exists(watchedKey(runId))) === 1;
    },
    async sendControl(runId, message) {
      await commands.rpush(controlKey(runId), JSON.stringify(message));
      await commands.publish(controlKey(runId), '1');
    },
    async takeControls(runId, apply) {
      let draining: Promise<void> = Promise.resolve();
      let stopped = false;
      const drainOnce = async (): Promise<void> => {
        for (;;) {
          if (stopped) return;
          const next = await commands.lpop(controlKey(runId));
          if (next === null || stopped) return;
          apply(JSON.parse(next) as ControlMessage);
        }
      };
      const drain = (): void => {
        draining = draining.then(drainOnce).catch((error: unknown) => {
          console.error(`[loop-lab] run ${runId}: its control messages could not be read:`, error);
        });
      };
      const stop = await subscribe(controlKey(runId), drain);
      drain();
      return async ({ keepQueued = false } = {}) => {
        stopped = true;
        stop();
        await draining;
        if (!keepQueued) await commands.del(controlKey(runId));
      };
    },
    async hold(runId, holder, ttlMs) {
      await commands.multi().hset(HELD_RUNS, runId, holder).set(holderKey(runId), holder, 'PX', ttlMs).exec();
    },
    async release(runId) {
      await commands.multi().del(holderKey(runId)).hdel(HELD_RUNS, runId).exec();
    },
    async heldRuns() {
      const held = Object.entries(await commands.hgetall(HELD_RUNS));
      if (held.length === 0) return [];
      const holds = await commands.mget(held.map(([runId]) => holderKey(runId)));
      return held.map(([runId, holder], i) => ({ runId, holder, lapsed: holds[i] === null }));
    },
    async close() {
      await Promise.allSettled([commands.quit(), subscriber.close()]);
    },
  };
}
