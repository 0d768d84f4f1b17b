import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstDivergence } from '@/lib/compare/first-divergence';
import { LESSONS } from '@/lib/lessons';
import type { Board, RoomNotice, RunSummary } from '@/lib/protocol/http';
import { getRunRegistry } from '@/lib/server';
import { getStore } from '@/lib/store';
import { readSseEvents } from '@/lib/testing/api-test-env';
import { dispatch, ROUTES, type FuzzRequest } from './dispatch-route';
import {
  abortRun,
  join,
  json,
  playLesson,
  SHARED_ROUTES,
  SLOW_RUN,
  startRun,
  TEACHER_CODE,
  useRoom,
  type Visitor,
  visitorWith,
} from './room-mode.testkit';
import { readFrames } from './sse-frames.testkit';

/**
 * Room mode through the proxy and the real route handlers (dispatch-route.ts, as Next calls
 * them), in a room of its own (scripts/api/room-mode.testkit.ts): share links that show one run
 * read-only to anyone, and the teacher's board and notices.
 */

useRoom('room-links-and-board');

describe('room mode', () => {
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
            const { on, off } = await playLesson(visitor, lesson.slug);
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
      await abortRun(visitor, id);
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
