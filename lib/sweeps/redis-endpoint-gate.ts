import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { EndpointGate, GateTake } from './endpoint-gate';

/** Where the limiters live in Redis: a sorted set of the window's requests and the pause's end, per endpoint. */
const PREFIX = 'loop-lab:endpoint-gate:';

/**
 * decide() of endpoint-gate.ts, step for step, in one script, so a take is atomic across every
 * worker process: the window is a sorted set (score: when the request went; member:
 * `<at>:<tokens>:<unique>`), the pause a number of wall ms.
 */
const TAKE = `
local now = tonumber(ARGV[1]); local windowMs = tonumber(ARGV[2]); local rpm = tonumber(ARGV[3])
local tpm = tonumber(ARGV[4]); local tokens = tonumber(ARGV[5]); local member = ARGV[6]
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if paused > now then return {math.ceil(paused - now), 'paused'} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
local live = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local n = #live / 2
if rpm > 0 and n >= rpm then
  local at = tonumber(live[(n - rpm) * 2 + 2])
  return {math.max(1, math.ceil(at + windowMs - now)), 'requests'}
end
if tpm > 0 and n > 0 then
  local counts = {}
  local sum = 0
  for i = 1, n do
    counts[i] = tonumber(string.match(live[i * 2 - 1], '^[^:]+:([^:]+):'))
    sum = sum + counts[i]
  end
  if sum + tokens > tpm then
    for i = 1, n do
      sum = sum - counts[i]
      if sum + tokens <= tpm or sum == 0 then
        return {math.max(1, math.ceil(tonumber(live[i * 2]) + windowMs - now)), 'tokens'}
      end
    end
  end
end
redis.call('ZADD', KEYS[1], now, member)
redis.call('PEXPIRE', KEYS[1], math.ceil(windowMs * 2))
return {0, ''}
`;

const PAUSE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local untilMs = tonumber(ARGV[1])
if untilMs > current then redis.call('SET', KEYS[1], ARGV[1], 'PX', math.max(1, math.ceil(untilMs - tonumber(ARGV[2])) + 60000)) end
return 1
`;

/**
 * The endpoints' limiters in Redis, shared by every BullMQ worker process (each `npm run worker`
 * makes one on the queue's Redis): a request to an endpoint counts wherever it was sent from, and
 * a 429's pause holds every worker's runs. Times are wall ms (Date.now()) of the worker machines.
 */
export function createRedisGate({ redisUrl }: { redisUrl: string }): EndpointGate {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false });
  return {
    async take({ key, limits, tokens, windowMs, now }) {
      const member = `${now}:${tokens}:${randomUUID()}`;
      const [waitMs, because] = (await redis.eval(
        TAKE,
        2,
        `${PREFIX}${key}:window`,
        `${PREFIX}${key}:paused`,
        String(now),
        String(windowMs),
        String(limits.requestsPerMin ?? 0),
        String(limits.tokensPerMin ?? 0),
        String(tokens),
        member,
      )) as [number, string];
      return (waitMs === 0 ? { waitMs: 0, entry: member } : { waitMs, because }) as GateTake;
    },
    async settle(key, entry, at) {
      // XX: only a place still in the window moves; GT: only later.
      await redis.zadd(`${PREFIX}${key}:window`, 'XX', 'GT', at, entry);
    },
    async pauseUntil(key, until) {
      await redis.eval(PAUSE, 1, `${PREFIX}${key}:paused`, String(Math.ceil(until)), String(Date.now()));
    },
    async close() {
      await redis.quit().catch(() => {});
    },
  };
}
