import { describe, expect, it } from 'vitest';
import { LESSONS } from '@/lib/lessons';
import { getRunRegistry, getSweepRegistry } from '@/lib/server';
import { dispatch, ROUTES } from './dispatch-route';
import {
  abortRun,
  asArray,
  CODE,
  join,
  json,
  listIds,
  SHARED_ROUTES,
  SLOW_RUN,
  startRun,
  TEACHER_CODE,
  useRoom,
  VIRTUAL_RUN,
  withRoomLimit,
  visitorWith,
} from './room-mode.testkit';

/**
 * Room mode through the proxy and the real route handlers (dispatch-route.ts, as Next calls
 * them), in a room of its own (scripts/api/room-mode.testkit.ts): sessions from POST /api/room/join,
 * fair shares, and what is left outside room mode.
 */

useRoom('room-mode');

describe('room mode', () => {
  it('a wrong code is a 401 saying so, and no cookie is set', async () => {
    const response = await dispatch({
      method: 'POST',
      path: '/api/room/join',
      body: JSON.stringify({ code: 'blue-otter-43' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
    const body = await json<{ error: string; details: string[] }>(response);
    expect(body.error).toBe('That is not the room code');
    expect(body.details[0]).toMatch(/^code: check it with the teacher/);
  });

  it('every route but the join answers 401 without a session, saying how to join', async () => {
    const tried: string[] = [];
    for (const route of ROUTES) {
      if (route.pattern === '/api/room/join' || route.pattern.startsWith('/api/shared/')) continue;
      const response = await dispatch({
        method: route.method,
        path: route.pattern.replace(/:(id|slug)/, 'x'),
        ...(route.method === 'POST' ? { body: '{}' } : {}),
      });
      const body = await json<{ error: string; details: string[] }>(response);
      expect(response.status, `${route.method} ${route.pattern}`).toBe(401);
      expect(body.error).toBe('This Loop Lab is a room: join it first');
      expect(body.details.join(' ')).toContain('POST /api/room/join');
      tried.push(route.pattern);
    }
    expect(tried.length).toBe(ROUTES.length - 1 - SHARED_ROUTES.length);
    // A share link's routes are open without a session: an unknown link is a 404, not a 401.
    for (const route of SHARED_ROUTES) {
      const response = await dispatch({ method: 'GET', path: route.replace(':token', 'x'.repeat(32)) });
      expect(response.status, route).toBe(404);
      expect((await json<{ error: string }>(response)).error).toMatch(/No shared run at this link/);
    }
  });

  it('a tampered or foreign cookie is a 401', async () => {
    const visitor = await join();
    const [name, value] = visitor.cookie.split('=') as [string, string];
    const middle = Math.floor(value.length / 2);
    const flipped = value[middle] === 'A' ? 'B' : 'A';
    const tampered = visitorWith(`${name}=${value.slice(0, middle)}${flipped}${value.slice(middle + 1)}`);
    const forged = visitorWith(`${name}=${JSON.stringify({ visitor: 'me' })}`);
    for (const who of [tampered, forged]) {
      const response = await who.send({ method: 'GET', path: '/api/runs' });
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
    const fine = await visitor.send({ method: 'GET', path: '/api/runs' });
    expect(fine.status).toBe(200);
  });

  it('30 visitors start runs at once and each lists only their own', async () => {
    const visitors = await Promise.all(Array.from({ length: 30 }, () => join()));
    const ids = await Promise.all(visitors.map((visitor) => startRun(visitor)));
    expect(new Set(ids).size).toBe(30);
    await Promise.all(ids.map((id) => getRunRegistry().whenFinished(id)));
    const lists = await Promise.all(visitors.map((visitor) => listIds(visitor, '/api/runs', asArray)));
    lists.forEach((list, i) => expect(list).toEqual([ids[i]]));
  }, 120_000);

  describe('fair shares', () => {
    it('a visitor past their live runs gets a 429 naming the limit, with Retry-After', async () => {
      await withRoomLimit('LOOP_LAB_ROOM_LIVE_RUNS', '2', async () => {
        const visitor = await join();
        const live = [await startRun(visitor, SLOW_RUN), await startRun(visitor, SLOW_RUN)];
        const refused = await visitor.send({
          method: 'POST',
          path: '/api/runs',
          body: JSON.stringify(SLOW_RUN),
        });
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('5');
        const body = await json<{ error: string; limit: unknown }>(refused);
        expect(body.limit).toEqual({
          name: 'liveRuns',
          variable: 'LOOP_LAB_ROOM_LIVE_RUNS',
          value: 2,
          retryAfterSeconds: 5,
        });
        expect(body.error).toMatch(/at most 2 live runs per visitor/);
        // Another visitor is not held back by this one.
        const other = await join();
        const theirs = await startRun(other, VIRTUAL_RUN);
        for (const id of live) await abortRun(visitor, id);
        await Promise.all([...live, theirs].map((id) => getRunRegistry().whenFinished(id)));
        // Once one has ended, the visitor may start again.
        await getRunRegistry().whenFinished(await startRun(visitor, VIRTUAL_RUN));
      });
    }, 60_000);

    it("a visitor's starts sent at once are admitted one after another: no more live runs than the limit", async () => {
      await withRoomLimit('LOOP_LAB_ROOM_LIVE_RUNS', '2', async () => {
        const visitor = await join();
        const answers = await Promise.all(
          [1, 2, 3, 4].map(() =>
            visitor.send({ method: 'POST', path: '/api/runs', body: JSON.stringify(SLOW_RUN) }),
          ),
        );
        const live: string[] = [];
        for (const answer of answers)
          if (answer.status === 201) live.push((await json<{ id: string }>(answer)).id);
        expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 429, 429]);
        for (const id of live) await abortRun(visitor, id);
        await Promise.all(live.map((id) => getRunRegistry().whenFinished(id)));
      });
    }, 60_000);

    it('a visitor past their runs a minute gets a 429 naming the limit, with Retry-After', async () => {
      await withRoomLimit('LOOP_LAB_ROOM_RUNS_PER_MIN', '3', async () => {
        const visitor = await join();
        for (let i = 0; i < 3; i++) await getRunRegistry().whenFinished(await startRun(visitor));
        const refused = await visitor.send({
          method: 'POST',
          path: '/api/runs',
          body: JSON.stringify(VIRTUAL_RUN),
        });
        expect(refused.status).toBe(429);
        const body = await json<{ limit: { name: string; value: number; retryAfterSeconds: number } }>(
          refused,
        );
        expect(body.limit).toMatchObject({
          name: 'runsPerMinute',
          variable: 'LOOP_LAB_ROOM_RUNS_PER_MIN',
          value: 3,
        });
        // One token comes back every 20 s: the wait is at most that.
        expect(body.limit.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(body.limit.retryAfterSeconds).toBeLessThanOrEqual(20);
        expect(refused.headers.get('retry-after')).toBe(String(body.limit.retryAfterSeconds));
        // A lesson (two runs) is refused by the same bucket.
        const lesson = LESSONS.find((l) => !l.fork)!;
        const played = await visitor.send({
          method: 'POST',
          path: `/api/lessons/${lesson.slug}/play`,
          body: '{}',
        });
        expect(played.status).toBe(429);
        await played.body?.cancel();
      });
    }, 60_000);

    it('a sweep larger than a visitor may start is a 429 naming the limit', async () => {
      await withRoomLimit('LOOP_LAB_ROOM_SWEEP_RUNS', '2', async () => {
        const visitor = await join();
        const grid = { configurations: [{ id: 'naive', preset: 'naive' }], seeds: { from: 1, to: 3 } };
        const refused = await visitor.send({
          method: 'POST',
          path: '/api/sweeps',
          body: JSON.stringify(grid),
        });
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBeNull();
        const body = await json<{ error: string; limit: unknown }>(refused);
        expect(body.limit).toEqual({ name: 'sweepRuns', variable: 'LOOP_LAB_ROOM_SWEEP_RUNS', value: 2 });
        expect(body.error).toMatch(/this grid makes 3/);
        const small = { ...grid, seeds: { from: 1, to: 2 } };
        const fine = await visitor.send({ method: 'POST', path: '/api/sweeps', body: JSON.stringify(small) });
        expect(fine.status).toBe(201);
        await getSweepRegistry().whenFinished((await json<{ id: string }>(fine)).id);
      });
    }, 60_000);
  });

  it('outside room mode there is nothing to join', async () => {
    delete process.env.LOOP_LAB_ROOM_CODE;
    delete process.env.LOOP_LAB_TEACHER_CODE;
    try {
      const response = await dispatch({
        method: 'POST',
        path: '/api/room/join',
        body: JSON.stringify({ code: CODE }),
      });
      expect(response.status).toBe(404);
      expect((await json<{ error: string }>(response)).error).toMatch(/not a room/);
      const runs = await dispatch({ method: 'GET', path: '/api/runs' });
      expect(runs.status).toBe(200);
      // Everything is everyone's again, as before room mode.
      expect((await json<unknown[]>(runs)).length).toBeGreaterThanOrEqual(30);
      // A share link works without a room too; there is no board and no notices.
      const id = (await json<{ id: string }[]>(await dispatch({ method: 'GET', path: '/api/runs' })))[0]!.id;
      const shared = await dispatch({ method: 'POST', path: `/api/runs/${id}/share`, body: '{}' });
      expect(shared.status).toBe(201);
      const { path: link, token } = await json<{ path: string; token: string }>(shared);
      expect(link).toBe(`/share/${token}`);
      const read = await dispatch({ method: 'GET', path: `/api/shared/${token}` });
      expect((await json<{ summary: { id: string } }>(read)).summary.id).toBe(id);
      for (const path of ['/api/board', '/api/room/notices']) {
        const response = await dispatch({ method: 'GET', path });
        expect(response.status, path).toBe(404);
        expect((await json<{ error: string }>(response)).error).toMatch(/not a room/);
      }
    } finally {
      process.env.LOOP_LAB_ROOM_CODE = CODE;
      process.env.LOOP_LAB_TEACHER_CODE = TEACHER_CODE;
    }
  });
});
