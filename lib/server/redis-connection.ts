import { Redis } from 'ioredis';

/**
 * The Redis connections of a web instance or a worker (LOOP_LAB_REDIS_URL): one way to open
 * them, and one subscriber that fans each channel's messages out to this process's callbacks,
 * so a thousand pages following one channel cost Redis one subscription.
 */

/**
 * A connection to the Redis at `url`. A Redis that goes away is retried by ioredis; each failure
 * is said once on stderr, not thrown. `maxRetriesPerRequest`: null waits for Redis to come back
 * (commands a run depends on); a number fails the command after that many tries (a request's check).
 */
export function openRedis(
  url: string,
  { maxRetriesPerRequest }: { maxRetriesPerRequest: number | null },
): Redis {
  const connection = new Redis(url, { maxRetriesPerRequest, lazyConnect: false });
  connection.on('error', (error: Error) => console.error(`[loop-lab] redis: ${error.message}`));
  return connection;
}

/**
 * A message on a channel, or `undefined` after a lost connection came back: messages may have
 * been missed meanwhile, and the callback reads again what it follows.
 */
export type ChannelCallback = (message: string | undefined) => void;

export interface Subscriber {
  /** Calls `callback` on each message of `channel`; resolves once Redis has the subscription, with the function that ends it. */
  subscribe(channel: string, callback: ChannelCallback): Promise<() => void>;
  close(): Promise<void>;
}

/** One subscriber connection to the Redis at `url`, shared by every callback of this process. */
export function createSubscriber(url: string): Subscriber {
  const connection = openRedis(url, { maxRetriesPerRequest: null });
  const callbacks = new Map<string, Set<ChannelCallback>>();
  const tell = (channel: string, message: string | undefined): void => {
    for (const callback of callbacks.get(channel) ?? []) {
      try {
        callback(message);
      } catch (error) {
        console.error(`[loop-lab] a message of ${channel} failed:`, (error as Error).message);
      }
    }
  };
  connection.on('message', (channel: string, message: string) => tell(channel, message));
  let connectedOnce = false;
  connection.on('ready', () => {
    // ioredis subscribes again after a reconnect; what was published meanwhile is read now.
    if (connectedOnce) for (const channel of callbacks.keys()) tell(channel, undefined);
    connectedOnce = true;
  });
  return {
    async subscribe(channel, callback) {
      let set = callbacks.get(channel);
      if (!set) callbacks.set(channel, (set = new Set()));
      set.add(callback);
      if (set.size === 1) await connection.subscribe(channel);
      return () => {
        const current = callbacks.get(channel);
        if (!current?.delete(callback) || current.size > 0) return;
        callbacks.delete(channel);
        void connection.unsubscribe(channel).catch(() => {});
      };
    },
    async close() {
      callbacks.clear();
      await connection.quit().catch(() => {});
    },
  };
}
