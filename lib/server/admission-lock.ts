import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { HttpError } from './http-error';

/**
 * One admission at a time per visitor: a start's check of the limits and the runs it then
 * creates and claims as the visitor's happen under the visitor's lock, so two requests that cross
 * (on one instance or on two) cannot both count the runs before either is stored. In this
 * process's memory, or, with Redis, a key per visitor set only when absent and removed only by its
 * holder, expiring should its process die holding it.
 */

/** How long an admission may hold the lock, and how long another waits for it (a bound, not a pace). */
const HOLD_MS = 60_000;
/** How often a waiter tries Redis's lock again. */
const RETRY_MS = 20;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

const globalForLocks = globalThis as typeof globalThis & {
  __loopLabAdmissionLocks?: Map<string, Promise<unknown>>;
};

/** Runs `admit` holding the visitor's lock: Redis's when `redis` is given, else this process's. */
export function holdingAdmission<T>(
  visitor: string,
  redis: Redis | undefined,
  admit: () => Promise<T>,
): Promise<T> {
  return redis ? holdingInRedis(visitor, redis, admit) : holdingHere(visitor, admit);
}

function holdingHere<T>(visitor: string, admit: () => Promise<T>): Promise<T> {
  const locks = (globalForLocks.__loopLabAdmissionLocks ??= new Map());
  const before = locks.get(visitor) ?? Promise.resolve();
  const mine = before.then(admit, admit);
  const settled = mine.catch(() => {});
  locks.set(visitor, settled);
  // The last admission of the visitor forgets its entry: a room of many visitors keeps none.
  void settled.then(() => {
    if (locks.get(visitor) === settled) locks.delete(visitor);
  });
  return mine;
}

async function holdingInRedis<T>(visitor: string, redis: Redis, admit: () => Promise<T>): Promise<T> {
  const key = `loop-lab:room-limit:admitting:${visitor}`;
  const token = randomUUID();
  const deadline = performance.now() + HOLD_MS;
  while ((await redis.set(key, token, 'PX', HOLD_MS, 'NX')) !== 'OK') {
    if (performance.now() > deadline)
      throw new HttpError(503, 'Another start of yours is still being admitted', ['try again in a moment']);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  try {
    return await admit();
  } finally {
    await redis.eval(RELEASE_SCRIPT, 1, key, token).catch(() => {});
  }
}
