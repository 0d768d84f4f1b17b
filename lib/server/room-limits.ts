import 'server-only';
import type { Redis } from 'ioredis';
import { serverEnv } from '@/lib/config/server-env';
import { getVisitorStore } from '@/lib/store';
import { RoomLimitError } from './http-error';
import { holdingAdmission } from './admission-lock';
import { openRedis } from './redis-connection';

/**
 * Room mode's fair shares, per visitor: how many runs may be live at once, how many may start a
 * minute (a token bucket that refills continuously), and how many runs one sweep may hold. A
 * server policy on requests, not part of any run: the bucket reads the wall clock, and nothing
 * it decides is recorded in a run. Outside room mode (`visitor` null) nothing is limited.
 *
 * Live runs are counted in the store, which every web instance shares, under the visitor's
 * admission lock (admission-lock.ts), so starts sent at once are counted one after another. The
 * per-minute bucket is this process's own, or, with LOOP_LAB_REDIS_URL set (several web instances
 * behind one URL), one bucket per visitor in Redis, taken from atomically, so the instances
 * enforce one limit.
 */

/** What a live-runs 429 suggests waiting: a lesson's runs end in seconds; it is a hint, not a promise. */
const LIVE_RUNS_RETRY_SECONDS = 5;

interface Bucket {
  tokens: number;
  at: number;
}

const globalForLimits = globalThis as typeof globalThis & { __loopLabRoomLimits?: Map<string, Bucket> };

function buckets(): Map<string, Bucket> {
  globalForLimits.__loopLabRoomLimits ??= new Map();
  return globalForLimits.__loopLabRoomLimits;
}

/**
 * Admits `count` runs the visitor is about to start (a lesson starts two, or three with its
 * parent) and calls `start`, which creates them and claims them as the visitor's; or throws the
 * 429 of the first limit they would pass. Takes the tokens only when every limit admits them.
 * The check and `start` hold the visitor's admission lock (admission-lock.ts): runs started at
 * once, through one instance or several, are counted one start after another.
 * `now`: wall-clock ms (tests pass their own; the Redis bucket keeps Redis's).
 */
export async function admitRuns<T>(
  visitor: string | null,
  count: number,
  start: () => Promise<T>,
  now?: number,
): Promise<T> {
  if (visitor === null) return start();
  const { redisUrl } = serverEnv();
  return holdingAdmission(visitor, redisUrl ? limitsRedis(redisUrl) : undefined, async () => {
    await checkLimits(visitor, count, now ?? Date.now());
    return start();
  });
}

async function checkLimits(visitor: string, count: number, now: number): Promise<void> {
  const { liveRuns, runsPerMinute } = serverEnv().roomLimits;
  const live = await getVisitorStore().runningRunsOf(visitor);
  if (live + count > liveRuns) {
    throw new RoomLimitError(
      `Room limit: at most ${liveRuns} live run${liveRuns === 1 ? '' : 's'} per visitor ` +
        `(you have ${live}, this starts ${count}); try again when one ends`,
      {
        name: 'liveRuns',
        variable: 'LOOP_LAB_ROOM_LIVE_RUNS',
        value: liveRuns,
        retryAfterSeconds: LIVE_RUNS_RETRY_SECONDS,
      },
    );
  }
  const perMs = runsPerMinute / 60_000;
  const { redisUrl } = serverEnv();
  const taken = redisUrl
    ? await takeFromRedis({ redisUrl, visitor, count, capacity: runsPerMinute, perMs })
    : takeHere({ visitor, count, capacity: runsPerMinute, perMs, now });
  if (!taken.ok) {
    const retryAfterSeconds = Math.max(1, Math.ceil((count - taken.tokens) / perMs / 1000));
    throw new RoomLimitError(
      `Room limit: at most ${runsPerMinute} runs started per minute per visitor; try again in ${retryAfterSeconds} s`,
      {
        name: 'runsPerMinute',
        variable: 'LOOP_LAB_ROOM_RUNS_PER_MIN',
        value: runsPerMinute,
        retryAfterSeconds,
      },
    );
  }
}

interface Take {
  visitor: string;
  count: number;
  /** The bucket's size: runs a minute. */
  capacity: number;
  /** Tokens it refills each ms. */
  perMs: number;
}

/** Takes `count` tokens from this process's bucket when it holds them; says what it held. */
function takeHere({ visitor, count, capacity, perMs, now }: Take & { now: number }): {
  ok: boolean;
  tokens: number;
} {
  const held = buckets().get(visitor) ?? { tokens: capacity, at: now };
  const tokens = Math.min(capacity, held.tokens + (now - held.at) * perMs);
  const ok = tokens >= count;
  buckets().set(visitor, { tokens: ok ? tokens - count : tokens, at: now });
  return { ok, tokens };
}

/**
 * The same bucket in Redis: refilled and taken from in one script, on Redis's clock (so web
 * instances on several machines agree on it); it expires once it would be full again.
 */
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local count = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1]) or capacity
local at = tonumber(held[2]) or now
tokens = math.min(capacity, tokens + (now - at) * perMs)
local ok = 0
if tokens >= count then
  ok = 1
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens - count), 'at', tostring(now))
else
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
end
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / perMs) + 1000)
return { ok, tostring(tokens) }
`;

const globalForRedis = globalThis as typeof globalThis & { __loopLabLimitsRedis?: Redis };

/** This process's connection for the limits: the runs-a-minute buckets and the admission locks. */
function limitsRedis(redisUrl: string): Redis {
  globalForRedis.__loopLabLimitsRedis ??= openRedis(redisUrl, { maxRetriesPerRequest: 2 });
  return globalForRedis.__loopLabLimitsRedis;
}

async function takeFromRedis({
  redisUrl,
  visitor,
  count,
  capacity,
  perMs,
}: Take & { redisUrl: string }): Promise<{
  ok: boolean;
  tokens: number;
}> {
  const [ok, tokens] = (await limitsRedis(redisUrl).eval(
    TAKE_SCRIPT,
    1,
    `loop-lab:room-limit:runs-per-minute:${visitor}`,
    String(capacity),
    String(perMs),
    String(count),
  )) as [number, string];
  return { ok: ok === 1, tokens: Number(tokens) };
}

/** Refuses a sweep of more runs than a visitor's sweep may hold (waiting does not help: no Retry-After). */
export function admitSweep(visitor: string | null, runs: number): void {
  if (visitor === null) return;
  const { sweepRuns } = serverEnv().roomLimits;
  if (runs > sweepRuns) {
    throw new RoomLimitError(
      `Room limit: a sweep may hold at most ${sweepRuns} runs per visitor (this grid makes ${runs}); make the grid smaller`,
      { name: 'sweepRuns', variable: 'LOOP_LAB_ROOM_SWEEP_RUNS', value: sweepRuns },
    );
  }
}
