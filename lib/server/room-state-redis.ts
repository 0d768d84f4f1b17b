import type { RoomNotice } from '@/lib/protocol/http';
import { createSubscriber, openRedis } from './redis-connection';
import { SESSION_TTL_SECONDS } from './room-session';
import { KEPT_NOTICES, TEACHER_NAME, type Present, type RoomState } from './room-state';

/**
 * The room kept in Redis, for several web instances behind one URL: who joined and the notices
 * sent are Redis's, each written by one script (so two instances never give two joiners one
 * name, nor two notices one id), and every change is published; each instance has one
 * subscriber connection, whatever the number of pages that listen through it. What is kept
 * expires a session's length after the room's last join or notice: by then every session has.
 */

const PREFIX = 'loop-lab:room:';
/** visitor → {name, teacher, order}: `order` is the join's place among every member's first joins. */
const PRESENT = `${PREFIX}present`;
/** Counters: members joined, visitors among them (their names' numbers), notices sent (their ids). */
const COUNTS = `${PREFIX}counts`;
/** The kept notices, oldest first, each as sent. */
const NOTICES = `${PREFIX}notices`;
/** Channels: the board may have changed; a notice was sent (the message is the notice). */
const CHANGED_CHANNEL = `${PREFIX}changed`;
const NOTICE_CHANNEL = `${PREFIX}notice-sent`;
const TTL_MS = SESSION_TTL_SECONDS * 1000;
const KEYS = [PRESENT, COUNTS, NOTICES] as const;

const REFRESH = `for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ARGV[#ARGV]) end`;

/** ARGV: visitor, '1' for the teacher, the teacher's name, the ttl. Names the visitor on their first join. */
const JOIN_SCRIPT = `
local known = redis.call('HGET', KEYS[1], ARGV[1])
local teacher = ARGV[2] == '1'
local name, order
if known then
  local was = cjson.decode(known)
  name = was.name
  order = was.order
else
  order = redis.call('HINCRBY', KEYS[2], 'joined', 1)
  if teacher then
    name = ARGV[3]
  else
    name = 'visitor ' .. redis.call('HINCRBY', KEYS[2], 'visitors', 1)
  end
end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({ name = name, teacher = teacher, order = order }))
${REFRESH}
redis.call('PUBLISH', '${CHANGED_CHANNEL}', '')
`;

/** ARGV: the notice's JSON without its id (an object of at least one field), how many to keep, the ttl. */
const NOTICE_SCRIPT = `
local id = redis.call('HINCRBY', KEYS[2], 'notice', 1)
local notice = '{"id":' .. id .. ',' .. string.sub(ARGV[1], 2)
redis.call('RPUSH', KEYS[3], notice)
redis.call('LTRIM', KEYS[3], -tonumber(ARGV[2]), -1)
${REFRESH}
redis.call('PUBLISH', '${NOTICE_CHANNEL}', notice)
redis.call('PUBLISH', '${CHANGED_CHANNEL}', '')
return notice
`;

/** The room in the Redis at `redisUrl`: one connection for commands, one subscriber. */
export function createRedisRoomState(redisUrl: string): RoomState {
  // A request fails with Redis's error rather than wait for it to come back.
  const commands = openRedis(redisUrl, { maxRetriesPerRequest: 2 });
  const subscriber = createSubscriber(redisUrl);
  const kept = async (): Promise<RoomNotice[]> =>
    (await commands.lrange(NOTICES, 0, -1)).map((json) => JSON.parse(json) as RoomNotice);
  return {
    async join(visitor, teacher) {
      await commands.eval(
        JOIN_SCRIPT,
        KEYS.length,
        ...KEYS,
        visitor,
        teacher ? '1' : '0',
        TEACHER_NAME,
        String(TTL_MS),
      );
    },
    async present() {
      const rows = Object.entries(await commands.hgetall(PRESENT)).map(([visitor, json]) => {
        const { name, teacher, order } = JSON.parse(json) as Present & { order: number };
        return { visitor, who: { name, teacher }, order };
      });
      rows.sort((a, b) => a.order - b.order);
      return rows.map(({ visitor, who }): [string, Present] => [visitor, who]);
    },
    async addNotice(draft) {
      const json = (await commands.eval(
        NOTICE_SCRIPT,
        KEYS.length,
        ...KEYS,
        JSON.stringify(draft),
        String(KEPT_NOTICES),
        String(TTL_MS),
      )) as string;
      return JSON.parse(json) as RoomNotice;
    },
    async noticesAfter(afterId) {
      return (await kept()).filter((notice) => notice.id > afterId);
    },
    async lastNotice() {
      const [json] = await commands.lrange(NOTICES, -1, -1);
      return json === undefined ? null : (JSON.parse(json) as RoomNotice);
    },
    async changed() {
      await commands.publish(CHANGED_CHANNEL, '');
    },
    onChange(listener) {
      return subscriber.subscribe(CHANGED_CHANNEL, () => listener());
    },
    onNotice(listener) {
      return subscriber.subscribe(NOTICE_CHANNEL, (message) => {
        if (message !== undefined) return listener(JSON.parse(message) as RoomNotice);
        // Back after a lost connection: what was sent meanwhile is among the kept notices.
        void kept().then(
          (notices) => notices.forEach(listener),
          (error: unknown) => console.error(`[loop-lab] the room's notices were not read: ${String(error)}`),
        );
      });
    },
    async close() {
      await Promise.allSettled([commands.quit(), subscriber.close()]);
    },
  };
}
