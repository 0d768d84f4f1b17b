import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LESSONS } from '@/lib/lessons';
import type { Board, RoomNotice, RunRecord } from '@/lib/protocol/http';
import { killAll, serve, startRedis, startWorker } from './processes.testkit';
import { readFrames } from './sse-frames.testkit';

/**
 * One room on two web instances (several machines behind one URL): real processes on one data
 * folder, one redis-server and a queue worker. Visitors join and play a lesson through instance A;
 * the teacher watches the board through instance B and sends a notice through it; the board on B
 * shows who joined on A, their lesson and its tally, the notice reaches a visitor's page on A, and
 * no visitor sees another's runs through either instance. A visitor's live runs are one limit
 * whichever instance each run was started through.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-room-board-redis-'));
afterAll(() => {
  killAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CODE = 'green-finch-3';
const TEACHER_CODE = 'grey-wolf-9';
/** A run that stays live for many seconds unless aborted. */
const SLOW_RUN = { config: { provider: { vendor: 'sim-anthropic' }, clock: 'real', timeScale: 1 } };
/** How long a stream is read before the test fails rather than waits on (a failure's bound, not a speed). */
const STREAM_BOUND_MS = 60_000;

/** A member of the room: their session cookie, valid on every instance (one session secret). */
interface Member {
  cookie: string;
}

async function join(base: string, code: string): Promise<Member> {
  const response = await fetch(`${base}/room/join`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = response.headers
    .getSetCookie()
    .map((set) => set.split(';')[0]!)
    .find((pair) => pair.startsWith('loop_lab_room='));
  expect(cookie).toBeDefined();
  return { cookie: cookie! };
}

function send(base: string, member: Member, route: string, body?: unknown): Promise<Response> {
  return fetch(`${base}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie: member.cookie, 'Content-Type': 'application/json' },
    signal: AbortSignal.timeout(STREAM_BOUND_MS),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json<T>(response: Response): Promise<T> {
  expect(response.ok, `${response.status} ${await response.clone().text()}`).toBe(true);
  return (await response.json()) as T;
}

describe('a room on two web instances with Redis', () => {
  it('is one board: presence, lessons, tallies and notices cross instances; visitors stay apart', async () => {
    const redis = await startRedis(dir);
    const env = {
      LOOP_LAB_REDIS_URL: redis.url,
      LOOP_LAB_ROOM_CODE: CODE,
      LOOP_LAB_TEACHER_CODE: TEACHER_CODE,
      LOOP_LAB_SESSION_SECRET: 'a-session-secret-both-instances-share-0123456789',
      LOOP_LAB_ROOM_LIVE_RUNS: '3',
    };
    const [a, b] = await Promise.all([serve(dir, env), serve(dir, env)]);
    await startWorker(dir, env);

    const teacher = await join(b.base, TEACHER_CODE);
    const boardOnB = await send(b.base, teacher, '/board/events');
    expect(boardOnB.status).toBe(200);
    const lesson = LESSONS.find((l) => !l.fork)!;
    const [first, second] = [await join(a.base, CODE), await join(a.base, CODE)];
    // The lesson is played through A; the board on B is done once it shows the play ended.
    const frames = readFrames<Board>(boardOnB, (seen) =>
      seen.some((board) => board.lessons.some((t) => t.slug === lesson.slug && t.ended === 1)),
    );
    const notices = await send(a.base, second, '/room/notices');
    expect(notices.status).toBe(200);
    const noticeFrames = readFrames<RoomNotice>(notices, (seen) => seen.length >= 1);
    const played = await json<{ on: string; off: string }>(
      await send(a.base, first, `/lessons/${lesson.slug}/play`, { timeScale: 0.001 }),
    );

    const seen = await frames;
    const last = seen.at(-1)!;
    expect(last.visitors.map((v) => v.name)).toEqual(['visitor 1', 'visitor 2']);
    expect(last.visitors.map((v) => v.lesson)).toEqual([lesson.slug, null]);
    // While the play ran, B's board showed its two runs in flight, as the first visitor's.
    expect(seen.some((board) => board.inFlight.length === 2)).toBe(true);
    expect(last.inFlight).toEqual([]);
    const on = (await json<RunRecord>(await send(a.base, first, `/runs/${played.on}`))).summary;
    const off = (await json<RunRecord>(await send(a.base, first, `/runs/${played.off}`))).summary;
    expect(last.lessons.find((t) => t.slug === lesson.slug)).toMatchObject({
      played: 1,
      ended: 1,
      onCompleted: on.status === 'completed' ? 1 : 0,
      offFailed: off.status === 'failed' ? 1 : 0,
    });
    // One board: A answers what B streamed.
    expect(await json<Board>(await send(a.base, teacher, '/board'))).toEqual(last);

    // A notice sent through B reaches the visitor's page on A, and a page opened later on B.
    const sent = await json<RoomNotice>(
      await send(b.base, teacher, '/board/notice', { lesson: lesson.slug }),
    );
    expect(await noticeFrames).toEqual([sent]);
    const later = await readFrames<RoomNotice>(
      await send(b.base, first, '/room/notices'),
      (got) => got.length >= 1,
    );
    expect(later).toEqual([sent]);
    expect((await json<Board>(await send(b.base, teacher, '/board'))).notice).toEqual(sent);

    // Neither instance shows a visitor another's runs, nor the board.
    for (const base of [a.base, b.base]) {
      expect(await json<{ id: string }[]>(await send(base, second, '/runs'))).toEqual([]);
      expect((await send(base, second, `/runs/${played.on}`)).status).toBe(404);
      expect((await send(base, second, '/board')).status).toBe(403);
      const mine = (await json<{ id: string }[]>(await send(base, first, '/runs'))).map((run) => run.id);
      expect(mine.sort()).toEqual([played.on, played.off].sort());
    }

    // Live runs are one limit across the instances, however the requests cross: of five sent at
    // once through A and B, three start and two are refused.
    const tries = await Promise.all(
      [a.base, b.base, a.base, b.base, a.base].map((base) => send(base, second, '/runs', SLOW_RUN)),
    );
    const live: string[] = [];
    const refused: string[] = [];
    for (const answer of tries) {
      if (answer.status === 201) live.push(((await answer.json()) as { id: string }).id);
      else
        refused.push(
          ((await answer.json()) as { limit?: { name: string } }).limit?.name ?? `${answer.status}`,
        );
    }
    expect(refused).toEqual(['liveRuns', 'liveRuns']);
    expect(live).toHaveLength(3);
    for (const id of live)
      expect((await send(b.base, second, `/runs/${id}/control`, { action: 'abort' })).status).toBe(202);
  }, 180_000);
});
