import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstDivergence } from '@/lib/compare/first-divergence';
import { LESSONS } from '@/lib/lessons';
import type { Board, RoomNotice, RunSummary } from '@/lib/protocol/http';
import { getRunRegistry, getSweepRegistry } from '@/lib/server';
import { getStore } from '@/lib/store';
import { readSseEvents, useTempDataDir } from '@/lib/testing/api-test-env';
import { REAL_FIX, squareTask } from '@/lib/testing/task-folders';
import { dispatch, ROUTES, type FuzzRequest } from './dispatch-route';
import { readFrames } from './sse-frames.testkit';

/**
 * Room mode through the proxy and the real route handlers (dispatch-route.ts, as Next calls
 * them): sessions from POST /api/room/join, every visitor's things their own, fair shares.
 */
useTempDataDir('loop-lab-room-mode-');

const CODE = 'blue-otter-42';
const TEACHER_CODE = 'red-heron-7';
const ROOM_VARS = [
  'LOOP_LAB_ROOM_CODE',
  'LOOP_LAB_TEACHER_CODE',
  'LOOP_LAB_ROOM_LIVE_RUNS',
  'LOOP_LAB_ROOM_RUNS_PER_MIN',
  'LOOP_LAB_ROOM_SWEEP_RUNS',
] as const;
const before = Object.fromEntries(ROOM_VARS.map((name) => [name, process.env[name]]));
beforeAll(() => {
  process.env.LOOP_LAB_ROOM_CODE = CODE;
  process.env.LOOP_LAB_TEACHER_CODE = TEACHER_CODE;
});
afterAll(async () => {
  // Who is in the room is this process's memory (lib/server/room-board.ts): left as it was found.
  delete (globalThis as { __loopLabBoard?: unknown }).__loopLabBoard;
  for (const name of ROOM_VARS) {
    if (before[name] === undefined) delete process.env[name];
    else process.env[name] = before[name];
  }
});

const VIRTUAL_RUN = { config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual' } };
/** A run that stays live for many seconds unless aborted. */
const SLOW_RUN = { config: { provider: { vendor: 'sim-anthropic' }, clock: 'real', timeScale: 1 } };

/** A visitor: the cookie POST /api/room/join set, sent back with every request (a cookie jar of one). */
interface Visitor {
  cookie: string;
  send(request: FuzzRequest): Promise<Response>;
}

async function join(code = CODE): Promise<Visitor> {
  const response = await dispatch({ method: 'POST', path: '/api/room/join', body: JSON.stringify({ code }) });
  expect(response.status, await response.clone().text()).toBe(200);
  const set = response.headers.get('set-cookie') ?? '';
  expect(set).toMatch(/^loop_lab_room=[^;]+;/);
  expect(set).toMatch(/HttpOnly/i);
  expect(set).toMatch(/SameSite=Lax/i);
  return visitorWith(set.split(';')[0]!);
}

function visitorWith(cookie: string): Visitor {
  return {
    cookie,
    send: (request) => dispatch({ ...request, headers: { ...request.headers, cookie } }),
  };
}

async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function startRun(visitor: Visitor, body: unknown = VIRTUAL_RUN): Promise<string> {
  const response = await visitor.send({ method: 'POST', path: '/api/runs', body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await json<{ id: string }>(response)).id;
}

async function listIds(
  visitor: Visitor,
  path: string,
  pick: (body: unknown) => unknown[],
): Promise<string[]> {
  const response = await visitor.send({ method: 'GET', path });
  expect(response.status).toBe(200);
  return pick(await response.json()).map((row) => {
    const r = row as { id?: string; name?: string; version?: number };
    return r.id ?? `${r.name}@${r.version}`;
  });
}

const asArray = (body: unknown) => body as unknown[];
/** The routes a share link opens: reads only, each of the one run the link names. */
const SHARED_ROUTES = ROUTES.filter((route) => route.pattern.startsWith('/api/shared/')).map(
  (route) => route.pattern,
);
const LISTS = {
  '/api/runs': asArray,
  '/api/sweeps': asArray,
  '/api/cassettes': (body: unknown) => (body as { cassettes: unknown[] }).cassettes,
  '/api/prompt-sets': asArray,
  '/api/tasks': (body: unknown) => (body as { uploaded: unknown[] }).uploaded,
} as const;

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

  describe("another visitor's things", () => {
    let a: Visitor;
    let b: Visitor;
    const owned: Record<'run' | 'sweep' | 'cassette' | 'promptSet' | 'task', string> = {
      run: '',
      sweep: '',
      cassette: '',
      promptSet: '',
      task: '',
    };
    let lessonRuns: string[] = [];

    beforeAll(async () => {
      [a, b] = await Promise.all([join(), join()]);
      owned.run = await startRun(a);
      await getRunRegistry().whenFinished(owned.run);
      const grid = { configurations: [{ id: 'naive', preset: 'naive' }], seeds: { from: 1, to: 1 } };
      const sweep = await a.send({ method: 'POST', path: '/api/sweeps', body: JSON.stringify(grid) });
      expect(sweep.status, await sweep.clone().text()).toBe(201);
      owned.sweep = (await json<{ id: string }>(sweep)).id;
      await getSweepRegistry().whenFinished(owned.sweep);
      const file = path.join('cassettes', 'explain-project.sim-anthropic.cassette.json');
      const cassette = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      const saved = await a.send({
        method: 'POST',
        path: '/api/cassettes',
        body: JSON.stringify({ name: 'mine', cassette }),
      });
      expect(saved.status, await saved.clone().text()).toBe(201);
      owned.cassette = (await json<{ id: string }>(saved)).id;
      const set = await a.send({
        method: 'POST',
        path: '/api/prompt-sets',
        body: JSON.stringify({ name: 'terse', system: 'Be brief.', toolDescriptions: {} }),
      });
      expect(set.status, await set.clone().text()).toBe(201);
      owned.promptSet = 'terse@1';
      const task = await a.send({
        method: 'POST',
        path: '/api/tasks',
        body: JSON.stringify({ name: 'square', files: squareTask({ fix: REAL_FIX }) }),
      });
      expect(task.status, await task.clone().text()).toBe(201);
      owned.task = (await json<{ id: string }>(task)).id;
      const lesson = LESSONS.find((l) => !l.fork)!;
      const played = await a.send({
        method: 'POST',
        path: `/api/lessons/${lesson.slug}/play`,
        body: JSON.stringify({ timeScale: 0.001 }),
      });
      expect(played.status, await played.clone().text()).toBe(201);
      const { on, off } = await json<{ on: string; off: string }>(played);
      lessonRuns = [on, off];
      await Promise.all(lessonRuns.map((id) => getRunRegistry().whenFinished(id)));
    }, 180_000);

    /** What each route with an id takes: A's id of that kind. */
    const idFor = (pattern: string): string | undefined =>
      pattern.startsWith('/api/runs/:id')
        ? owned.run
        : pattern.startsWith('/api/sweeps/:id')
          ? owned.sweep
          : pattern.startsWith('/api/cassettes/:id')
            ? owned.cassette
            : undefined;
    const BODIES: Record<string, unknown> = {
      '/api/runs/:id/control': { action: 'abort' },
      '/api/runs/:id/cassette': {},
    };

    /** Sends a route's request with `id` in its path; the stream of an SSE answer is not read. */
    async function call(visitor: Visitor, route: (typeof ROUTES)[number], id: string) {
      const response = await visitor.send({
        method: route.method,
        path: route.pattern.replace(':id', id),
        ...(route.method === 'POST' ? { body: JSON.stringify(BODIES[route.pattern] ?? {}) } : {}),
      });
      const type = response.headers.get('content-type') ?? '';
      const body = type.includes('application/json') ? await response.text() : '';
      if (!type.includes('application/json')) await response.body?.cancel();
      return { status: response.status, body };
    }

    it("every route that takes an id answers B a 404 on A's id, as for an id that does not exist", async () => {
      const checked: string[] = [];
      for (const route of ROUTES) {
        const id = idFor(route.pattern);
        if (id === undefined) continue;
        const label = `${route.method} ${route.pattern}`;
        const theirs = await call(b, route, id);
        const missing = await call(b, route, 'no-such-id');
        expect(theirs.status, label).toBe(404);
        expect(theirs.body.replaceAll(id, 'ID'), label).toBe(missing.body.replaceAll('no-such-id', 'ID'));
        const mine = await call(a, route, id);
        expect(mine.status, `${label} for its maker`).not.toBe(404);
        checked.push(label);
      }
      expect(checked.length).toBeGreaterThanOrEqual(15);
    }, 60_000);

    it('lists show each visitor only their own', async () => {
      const theirs: Record<keyof typeof LISTS, string[]> = {
        '/api/runs': [owned.run, ...lessonRuns],
        '/api/sweeps': [owned.sweep],
        '/api/cassettes': [owned.cassette],
        '/api/prompt-sets': [owned.promptSet],
        '/api/tasks': [owned.task],
      };
      for (const [list, pick] of Object.entries(LISTS) as [keyof typeof LISTS, (b: unknown) => unknown[]][]) {
        const ofA = await listIds(a, list, pick);
        const ofB = await listIds(b, list, pick);
        for (const id of theirs[list]) {
          expect(ofA, `${list} of A`).toContain(id);
          expect(ofB, `${list} of B`).not.toContain(id);
        }
      }
      // The shipped cassettes are everyone's.
      expect(await listIds(b, '/api/cassettes', LISTS['/api/cassettes'])).toContain(
        'shipped:explain-project.sim-anthropic',
      );
    });

    it('ids sent in a query or a body are refused too: compare, fork, replay, prompt sets', async () => {
      const compare = (v: Visitor) =>
        v.send({ method: 'GET', path: `/api/compare?a=${owned.run}&b=${owned.run}` });
      expect((await compare(b)).status).toBe(404);
      expect((await compare(a)).status).toBe(200);

      const fork = { fork: { runId: owned.run, atTurn: 1 } };
      const forkOf = (v: Visitor) =>
        v.send({ method: 'POST', path: '/api/runs', body: JSON.stringify(fork) });
      const refused = await forkOf(b);
      expect(refused.status).toBe(404);
      expect((await json<{ error: string }>(refused)).error).toBe('No such run to fork');
      expect((await forkOf(a)).status).toBe(201);

      const replay = (cassette: string) => ({
        config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual', replay: { cassette } },
      });
      const replayed = await b.send({
        method: 'POST',
        path: '/api/runs',
        body: JSON.stringify(replay(owned.cassette)),
      });
      expect(replayed.status).toBe(400);
      expect((await json<{ details: string[] }>(replayed)).details[0]).toMatch(/no cassette/);
      expect(
        (await a.send({ method: 'POST', path: '/api/runs', body: JSON.stringify(replay(owned.cassette)) }))
          .status,
      ).toBe(201);

      const withSet = {
        config: {
          provider: { vendor: 'sim-anthropic' },
          clock: 'virtual',
          system: 'Be brief.',
          promptSet: { name: 'terse', version: 1 },
        },
      };
      const setRefused = await b.send({ method: 'POST', path: '/api/runs', body: JSON.stringify(withSet) });
      expect(setRefused.status).toBe(400);
      expect((await json<{ details: string[] }>(setRefused)).details.join()).toMatch(
        /no saved prompt set "terse"/,
      );
      expect(
        (await a.send({ method: 'POST', path: '/api/runs', body: JSON.stringify(withSet) })).status,
      ).toBe(201);
    }, 60_000);

    it("every route is accounted for: an id route, a list, a body carrying ids, or nobody's", () => {
      const BODY_IDS = ['GET /api/compare', 'POST /api/runs'];
      // These make something, recorded as its maker's (seen in the lists above), or own nothing.
      const MAKERS = [
        'POST /api/sweeps',
        'POST /api/cassettes',
        'POST /api/prompt-sets',
        'POST /api/tasks',
        'POST /api/runs/import',
        'POST /api/lessons/:slug/play',
      ];
      const NOBODYS = [
        'GET /api/scenarios',
        'GET /api/bench-diagnostics',
        'POST /api/bench-diagnostics',
        'POST /api/room/join',
        // The teacher's notices: the same for every page in the room.
        'GET /api/room/notices',
      ];
      // The teacher's: a visitor's session is refused (403), tested below.
      const TEACHERS = ['GET /api/board', 'GET /api/board/events', 'POST /api/board/notice'];
      // A share link's: the token names one run (tested below), no session asked.
      const SHARED = SHARED_ROUTES.map((pattern) => `GET ${pattern}`);
      const lists = Object.keys(LISTS).map((list) => `GET ${list}`);
      for (const route of ROUTES) {
        const label = `${route.method} ${route.pattern}`;
        const kinds = [
          idFor(route.pattern) !== undefined,
          lists.includes(label),
          BODY_IDS.includes(label),
          MAKERS.includes(label),
          NOBODYS.includes(label),
          TEACHERS.includes(label),
          SHARED.includes(label),
        ].filter(Boolean).length;
        expect(kinds, `${label}: say how room mode keeps it to its visitor`).toBe(1);
      }
    });

    it("an imported trace is its importer's", async () => {
      const trace = await a.send({ method: 'GET', path: `/api/runs/${owned.run}/trace` });
      const imported = await a.send({
        method: 'POST',
        path: '/api/runs/import',
        body: await trace.text(),
        headers: { 'Content-Type': 'application/x-ndjson' },
      });
      expect(imported.status, await imported.clone().text()).toBe(201);
      const { id } = await json<{ id: string }>(imported);
      expect(await listIds(a, '/api/runs', asArray)).toContain(id);
      expect((await b.send({ method: 'GET', path: `/api/runs/${id}` })).status).toBe(404);
    });
  });

  describe('fair shares', () => {
    it('a visitor past their live runs gets a 429 naming the limit, with Retry-After', async () => {
      process.env.LOOP_LAB_ROOM_LIVE_RUNS = '2';
      try {
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
        for (const id of live) {
          const abort = await visitor.send({
            method: 'POST',
            path: `/api/runs/${id}/control`,
            body: JSON.stringify({ action: 'abort' }),
          });
          expect(abort.status).toBe(202);
        }
        await Promise.all([...live, theirs].map((id) => getRunRegistry().whenFinished(id)));
        // Once one has ended, the visitor may start again.
        await getRunRegistry().whenFinished(await startRun(visitor, VIRTUAL_RUN));
      } finally {
        delete process.env.LOOP_LAB_ROOM_LIVE_RUNS;
      }
    }, 60_000);

    it("a visitor's starts sent at once are admitted one after another: no more live runs than the limit", async () => {
      process.env.LOOP_LAB_ROOM_LIVE_RUNS = '2';
      try {
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
        for (const id of live) {
          const abort = await visitor.send({
            method: 'POST',
            path: `/api/runs/${id}/control`,
            body: JSON.stringify({ action: 'abort' }),
          });
          expect(abort.status).toBe(202);
        }
        await Promise.all(live.map((id) => getRunRegistry().whenFinished(id)));
      } finally {
        delete process.env.LOOP_LAB_ROOM_LIVE_RUNS;
      }
    }, 60_000);

    it('a visitor past their runs a minute gets a 429 naming the limit, with Retry-After', async () => {
      process.env.LOOP_LAB_ROOM_RUNS_PER_MIN = '3';
      try {
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
      } finally {
        delete process.env.LOOP_LAB_ROOM_RUNS_PER_MIN;
      }
    }, 60_000);

    it('a sweep larger than a visitor may start is a 429 naming the limit', async () => {
      process.env.LOOP_LAB_ROOM_SWEEP_RUNS = '2';
      try {
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
      } finally {
        delete process.env.LOOP_LAB_ROOM_SWEEP_RUNS;
      }
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

  describe('share links', () => {
    it('a link shows one run read-only to anyone, reaches nothing else, and stops when revoked', async () => {
      const [a, b] = await Promise.all([join(), join()]);
      const id = await startRun(a);
      await getRunRegistry().whenFinished(id);
      const made = await a.send({ method: 'POST', path: `/api/runs/${id}/share`, body: '{}' });
      expect(made.status, await made.clone().text()).toBe(201);
      const { token, path: link } = await json<{ token: string; path: string }>(made);
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(link).toBe(`/share/${token}`);
      // The store keeps the token's hash, never the token.
      const dir = process.env.LOOP_LAB_DATA_DIR!;
      const files = fs.readdirSync(dir).filter((name) => name.startsWith('loop-lab.db'));
      expect(files.length).toBeGreaterThan(0);
      for (const name of files)
        expect(fs.readFileSync(path.join(dir, name)).includes(token), name).toBe(false);

      // No session, another visitor's: the same read-only answers.
      const nobody = (request: FuzzRequest) => dispatch(request);
      for (const send of [nobody, b.send]) {
        const record = await send({ method: 'GET', path: `/api/shared/${token}` });
        expect(record.status).toBe(200);
        expect((await json<{ summary: { id: string } }>(record)).summary.id).toBe(id);
        const view = await send({ method: 'GET', path: `/api/shared/${token}/view` });
        expect(view.status).toBe(200);
        expect(await json<{ finished: boolean }>(view)).toMatchObject({ finished: true });
        const events = await readSseEvents<{ event: string; run_id: string }>(
          await send({ method: 'GET', path: `/api/shared/${token}/events` }),
        );
        expect(events.at(-1)?.event).toBe('terminate');
        expect(new Set(events.map((event) => event.run_id))).toEqual(new Set([id]));
      }
      // The link reaches nothing but its run: every shared route is a read, and the run's own
      // routes stay the maker's (no session: 401; another visitor: 404).
      expect(ROUTES.filter((route) => route.pattern.startsWith('/api/shared/')).map((r) => r.method)).toEqual(
        SHARED_ROUTES.map(() => 'GET'),
      );
      expect((await dispatch({ method: 'GET', path: `/api/runs/${id}` })).status).toBe(401);
      const control = {
        method: 'POST' as const,
        path: `/api/runs/${id}/control`,
        body: '{"action":"abort"}',
      };
      expect((await b.send(control)).status).toBe(404);
      // B cannot share A's run, nor revoke A's links.
      const theirs = await b.send({ method: 'POST', path: `/api/runs/${id}/share`, body: '{}' });
      expect(theirs.status).toBe(404);
      const theirRevoke = await b.send({
        method: 'POST',
        path: `/api/runs/${id}/share`,
        body: '{"revoke":true}',
      });
      expect(theirRevoke.status).toBe(404);

      // An unknown token and a malformed one are answered alike: no token is confirmed.
      const unknown = await dispatch({ method: 'GET', path: `/api/shared/${'A'.repeat(32)}` });
      const malformed = await dispatch({ method: 'GET', path: '/api/shared/nope' });
      expect(unknown.status).toBe(404);
      expect(malformed.status).toBe(404);
      expect(await unknown.text()).toBe(await malformed.text());

      const revoked = await a.send({
        method: 'POST',
        path: `/api/runs/${id}/share`,
        body: '{"revoke":true}',
      });
      expect(await json(revoked)).toEqual({ revoked: 1 });
      for (const route of SHARED_ROUTES) {
        const gone = await dispatch({ method: 'GET', path: route.replace(':token', token) });
        expect(gone.status, route).toBe(404);
        await gone.body?.cancel();
      }
      // A bad body says what to send.
      const bad = await a.send({ method: 'POST', path: `/api/runs/${id}/share`, body: '{"revoke":false}' });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toMatch(/revoke: true ends every share link/);
    }, 60_000);
  });

  describe("the teacher's board", () => {
    async function joinAsTeacher(): Promise<Visitor> {
      const response = await dispatch({
        method: 'POST',
        path: '/api/room/join',
        body: JSON.stringify({ code: TEACHER_CODE }),
      });
      expect(response.status).toBe(200);
      expect(await response.clone().json()).toEqual({ joined: true, teacher: true });
      return visitorWith((response.headers.get('set-cookie') ?? '').split(';')[0]!);
    }

    it('a visitor can never see the board nor send a notice', async () => {
      const visitor = await join();
      const tries: FuzzRequest[] = [
        { method: 'GET', path: '/api/board' },
        { method: 'GET', path: '/api/board/events' },
        { method: 'POST', path: '/api/board/notice', body: JSON.stringify({ lesson: LESSONS[0]!.slug }) },
      ];
      for (const request of tries) {
        const response = await visitor.send(request);
        expect(response.status, request.path).toBe(403);
        expect((await json<{ error: string }>(response)).error).toBe("The board is the teacher's");
        expect((await dispatch(request)).status, `${request.path} without a session`).toBe(401);
      }
      const teacher = await joinAsTeacher();
      expect((await teacher.send({ method: 'GET', path: '/api/board' })).status).toBe(200);
    });

    it("the board's tallies match the stored runs of the lessons played", async () => {
      const teacher = await joinAsTeacher();
      const visitors = await Promise.all([join(), join(), join()]);
      // Lessons the other tests did not play, so every play of them is one made here.
      const picked = LESSONS.filter((l) => !l.fork).slice(1, 3);
      const plays: { slug: string; on: string; off: string }[] = [];
      await Promise.all(
        visitors.map(async (visitor, i) => {
          for (const lesson of i === 0 ? picked : [picked[i % picked.length]!]) {
            const played = await visitor.send({
              method: 'POST',
              path: `/api/lessons/${lesson.slug}/play`,
              body: JSON.stringify({ timeScale: 0.001 }),
            });
            expect(played.status, await played.clone().text()).toBe(201);
            const { on, off } = await json<{ on: string; off: string }>(played);
            plays.push({ slug: lesson.slug, on, off });
            // One lesson at a time: a lesson plays two runs, within a visitor's live runs.
            await Promise.all([on, off].map((id) => getRunRegistry().whenFinished(id)));
          }
        }),
      );
      await Promise.all(plays.flatMap((p) => [p.on, p.off]).map((id) => getRunRegistry().whenFinished(id)));
      const board = await json<Board>(await teacher.send({ method: 'GET', path: '/api/board' }));
      const store = getStore();
      for (const lesson of picked) {
        const mine = plays.filter((p) => p.slug === lesson.slug);
        const summaries = new Map<string, RunSummary>();
        let diverged = 0;
        for (const p of mine) {
          for (const id of [p.on, p.off]) summaries.set(id, (await store.getRun(id))!.summary);
          const parts = firstDivergence(
            await store.readEvents({ runId: p.on }),
            await store.readEvents({ runId: p.off }),
          );
          if (parts !== null) diverged += 1;
        }
        const summary = (id: string) => summaries.get(id)!;
        const expected = {
          slug: lesson.slug,
          title: lesson.title,
          played: mine.length,
          ended: mine.length,
          onCompleted: mine.filter((p) => summary(p.on).status === 'completed').length,
          offFailed: mine.filter((p) => summary(p.off).status === 'failed').length,
          diverged,
        };
        expect(board.lessons.find((t) => t.slug === lesson.slug)).toEqual(expected);
        // A lesson's two sides part where its text says, so each ended play counts as diverged.
        expect(expected.diverged).toBe(lesson.diverges.turn === null ? 0 : mine.length);
        expect(expected.played).toBeGreaterThan(0);
      }
      // Visitors are numbered in the order they joined, the teacher not among them.
      expect(board.visitors.map((v) => v.name)).toEqual(board.visitors.map((_, i) => `visitor ${i + 1}`));
      // Each visitor is on the lesson they played last; nothing of theirs is in flight now.
      const lessons = board.visitors.map((v) => v.lesson);
      expect(lessons).toContain(picked[1]!.slug);
      expect(board.inFlight).toEqual([]);
      expect(board.visitors.every((v) => v.running === 0)).toBe(true);
    }, 120_000);

    it('the board streams each change, and a notice reaches every visitor', async () => {
      const teacher = await joinAsTeacher();
      const visitor = await join();
      const board = await teacher.send({ method: 'GET', path: '/api/board/events' });
      expect(board.headers.get('content-type')).toMatch(/text\/event-stream/);
      const notices = await visitor.send({ method: 'GET', path: '/api/room/notices' });
      expect(notices.status).toBe(200);
      const lesson = LESSONS[0]!;
      // Done once a notice was sent and a run not in flight at the start shows in flight.
      const boardFrames = readFrames<Board>(board, (frames) => {
        const before = new Set(frames[0]?.inFlight.map((run) => run.run));
        return frames.some((f) => f.notice !== null && f.inFlight.some((run) => !before.has(run.run)));
      });
      const received = readFrames<RoomNotice>(notices, (frames) => frames.length >= 1);
      const sent = await teacher.send({
        method: 'POST',
        path: '/api/board/notice',
        body: JSON.stringify({ lesson: lesson.slug }),
      });
      expect(sent.status, await sent.clone().text()).toBe(201);
      const [notice] = await received;
      expect(notice).toMatchObject({ kind: 'lesson', slug: lesson.slug, title: lesson.title });
      // A page opened later gets the last notice sent; one that dismissed it (?after=) does not.
      const later = await readFrames<RoomNotice>(
        await visitor.send({ method: 'GET', path: '/api/room/notices' }),
        (frames) => frames.length >= 1,
      );
      expect(later).toEqual([notice]);
      const dismissed = readFrames<RoomNotice>(
        await visitor.send({ method: 'GET', path: `/api/room/notices?after=${notice!.id}` }),
        (frames) => frames.length >= 1,
      );
      const next = LESSONS[1]!;
      const again = await teacher.send({
        method: 'POST',
        path: '/api/board/notice',
        body: JSON.stringify({ lesson: next.slug }),
      });
      expect(again.status).toBe(201);
      // Its first frame is the notice sent after the one it dismissed.
      expect(await dismissed).toEqual([
        { id: notice!.id + 1, kind: 'lesson', slug: next.slug, title: next.title },
      ]);
      // A run started now shows on the board as in flight, pushed by the stream.
      const id = await startRun(visitor, SLOW_RUN);
      const frames = await boardFrames;
      expect(frames.length).toBeGreaterThanOrEqual(2);
      expect(frames[0]!.inFlight.map((run) => run.run)).not.toContain(id);
      expect(frames.at(-1)!.inFlight.map((run) => run.run)).toContain(id);
      expect(frames.at(-1)!.notice).toMatchObject({ kind: 'lesson' });
      const abort = await visitor.send({
        method: 'POST',
        path: `/api/runs/${id}/control`,
        body: JSON.stringify({ action: 'abort' }),
      });
      expect(abort.status).toBe(202);
      await getRunRegistry().whenFinished(id);
      // A config notice is checked as a run config.
      const badConfig = await teacher.send({
        method: 'POST',
        path: '/api/board/notice',
        body: JSON.stringify({ config: { clock: 'sideways' } }),
      });
      expect(badConfig.status).toBe(400);
      expect(await badConfig.text()).toMatch(/config\.clock/);
    }, 60_000);
  });
});
