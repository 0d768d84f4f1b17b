import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LESSONS } from '@/lib/lessons';
import { getRunRegistry, getSweepRegistry } from '@/lib/server';
import { REAL_FIX, squareTask } from '@/lib/testing/task-folders';
import { ROUTES } from './dispatch-route';
import {
  asArray,
  join,
  json,
  listIds,
  playLesson,
  LISTS,
  SHARED_ROUTES,
  startRun,
  useRoom,
  type Visitor,
} from './room-mode.testkit';

/**
 * Room mode through the proxy and the real route handlers (dispatch-route.ts, as Next calls
 * them), in a room of its own (scripts/api/room-mode.testkit.ts): every visitor's things their
 * own: each route and list keeps what one visitor made from every other.
 */

useRoom('room-ownership');

describe('room mode', () => {
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
      const { on, off } = await playLesson(a, lesson.slug);
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
      // The teacher's: a visitor's session is refused (403), tested in room-links-and-board.test.ts.
      const TEACHERS = ['GET /api/board', 'GET /api/board/events', 'POST /api/board/notice'];
      // A share link's: the token names one run (tested in room-links-and-board.test.ts), no session asked.
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
});
