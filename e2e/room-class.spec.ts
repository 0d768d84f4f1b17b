import { expect, test, type Page } from './test';
import { lessonBySlug } from '../lib/lessons';
import type { Board, RunRecord } from '../lib/protocol/http';
import { startRoomServer, type RoomServer } from './room-server';

/**
 * A class in one room: thirty visitors with their own sessions (HTTP clients, as scripts join)
 * and three in browsers play lessons at the same moment on one `next start`. Every event a
 * visitor's stream delivered is in the store, byte for byte, in dense order and ending with
 * `terminate`; each visitor lists only their own runs and is told a neighbour's does not exist;
 * a visitor past their live runs is told which limit; and the teacher's board tallies what the
 * store holds.
 */
const ROOM_CODE = 'green-finch-30';
const TEACHER_CODE = 'grey-owl-3';
/** Short lessons, taken in turn: visitor i plays LESSONS_PLAYED[i % 3]. */
const LESSONS_PLAYED = ['retry-ladder', 'retry-after', 'classifier'] as const;
/** The lesson a visitor starts to be held to their live runs (real pace: still running when refused). */
const HELD = 'stream-idle-watchdog';
const HTTP_VISITORS = 30;
const TIME_SCALE = 0.01;

let server: RoomServer | undefined;
let baseURL = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startRoomServer({
    roomCode: ROOM_CODE,
    teacherCode: TEACHER_CODE,
    name: 'room-class',
    // Each visitor starts one lesson (two runs): within the default limits, one of which is shown held.
    env: { LOOP_LAB_UNWATCHED_MS: '60000' },
  });
  baseURL = server.baseURL;
});

test.afterAll(() => server?.stop());

/** A visitor who joined over HTTP: their session cookie, sent with each request. */
interface Visitor {
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
}

async function join(code: string): Promise<Visitor> {
  const joined = await fetch(`${baseURL}/api/room/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(joined.status, await joined.clone().text()).toBe(200);
  const cookie = (joined.headers.get('set-cookie') ?? '').split(';')[0]!;
  expect(cookie).toContain('=');
  return {
    get: (path, headers = {}) => fetch(`${baseURL}${path}`, { headers: { cookie, ...headers } }),
    post: (path, body) =>
      fetch(`${baseURL}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
}

/** One run's stream as a visitor received it: each frame's id and JSON, in arrival order. */
interface Received {
  ids: number[];
  bodies: string[];
  reconnects: number;
}

/**
 * Reads a run's event stream to its `terminate`, reconnecting with Last-Event-ID when the stream
 * closes before it (as a browser's EventSource does), so a dropped stream is resumed, not lost.
 */
async function watch(visitor: Visitor, runId: string): Promise<Received> {
  const received: Received = { ids: [], bodies: [], reconnects: -1 };
  const connections: string[] = [];
  while (received.reconnects < 5) {
    received.reconnects += 1;
    const last = received.ids.at(-1);
    const started = Date.now();
    const response = await visitor.get(
      `/api/runs/${runId}/events`,
      last === undefined ? {} : { 'last-event-id': String(last) },
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    let frames = 0;
    for (const frame of text.split('\n\n')) {
      const id = frame.match(/^id: (\d+)$/m)?.[1];
      const data = frame.match(/^data: (.*)$/m)?.[1];
      if (id === undefined || data === undefined) continue;
      received.ids.push(Number(id));
      received.bodies.push(data);
      frames += 1;
    }
    connections.push(
      `${frames} events in ${Date.now() - started} ms, ending ${JSON.stringify(text.slice(-80))}`,
    );
    if (received.bodies.at(-1)?.includes('"event":"terminate"')) return received;
  }
  const summary = await (await visitor.get(`/api/runs/${runId}`)).text();
  throw new Error(
    `run ${runId}: the stream never reached terminate (${received.ids.length} events); ` +
      `connections: ${connections.join('; ')}; the run: ${summary.slice(0, 400)}`,
  );
}

/** One lesson played: by whom (their requests), which lesson, its two runs. */
interface Play {
  get: Visitor['get'];
  slug: string;
  on: string;
  off: string;
}

/**
 * Plays a lesson in the browser, as a visitor would: joins on the room page, opens the lesson,
 * presses Play and waits for the report of both sides. Its runs are the ones the play answered.
 */
async function playInBrowser(page: Page, slug: string): Promise<Play> {
  await page.goto(`${baseURL}/room`);
  await page.getByLabel('Room code').fill(ROOM_CODE);
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await page.goto(`${baseURL}/lessons/${slug}`);
  const answered = page.waitForResponse((r) => r.url().endsWith(`/api/lessons/${slug}/play`));
  await page.getByTestId('lesson-play').click();
  const { on, off } = (await (await answered).json()) as { on: string; off: string };
  await expect(page.getByTestId('lesson-report')).toBeVisible({ timeout: 150_000 });
  const get: Visitor['get'] = async (path) => {
    const response = await page.request.get(`${baseURL}${path}`);
    return new Response(await response.text(), { status: response.status() });
  };
  return { get, slug, on, off };
}

test('thirty visitors and three browsers play lessons at once: nothing lost, nothing shared, the board true', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const teacher = await join(TEACHER_CODE);
  const visitors = await Promise.all(Array.from({ length: HTTP_VISITORS }, () => join(ROOM_CODE)));
  const pages = await Promise.all(LESSONS_PLAYED.map(async () => (await browser.newContext()).newPage()));

  // Everyone at once: thirty lessons over HTTP, each side watched to its end, and three in browsers.
  const plays = visitors.map(async (visitor, i) => {
    const slug = LESSONS_PLAYED[i % LESSONS_PLAYED.length]!;
    const played = await visitor.post(`/api/lessons/${slug}/play`, { timeScale: TIME_SCALE });
    expect(played.status, await played.clone().text()).toBe(201);
    const { on, off } = (await played.json()) as { on: string; off: string };
    const [onStream, offStream] = await Promise.all([watch(visitor, on), watch(visitor, off)]);
    return { visitor, slug, on, off, streams: { [on]: onStream, [off]: offStream } };
  });
  const browserPlays = pages.map((page, i) => playInBrowser(page, LESSONS_PLAYED[i]!));
  const played = await Promise.all(plays);
  const inBrowsers = await Promise.all(browserPlays);
  await pages[0]!.screenshot({ path: test.info().outputPath('room-class-lesson.png'), fullPage: true });

  // Nothing lost: what each stream delivered is the stored log, event for event, ids dense from 0.
  let events = 0;
  for (const play of played) {
    for (const id of [play.on, play.off]) {
      const stream = play.streams[id]!;
      expect(stream.ids, `run ${id}: ids dense from 0`).toEqual(stream.ids.map((_, k) => k));
      const trace = await play.visitor.get(`/api/runs/${id}/trace`);
      expect(trace.status).toBe(200);
      const stored = (await trace.text()).split('\n').filter((line) => line.length > 0);
      expect(stream.bodies.map((body) => JSON.parse(body) as unknown)).toEqual(
        stored.map((line) => JSON.parse(line) as unknown),
      );
      events += stored.length;
    }
  }
  expect(events).toBeGreaterThan(HTTP_VISITORS * 2 * 5);

  // Nothing shared: each lists only their own two runs, and is told a neighbour's does not exist,
  // in the words a made-up id gets.
  for (const [i, play] of played.entries()) {
    const list = (await (await play.visitor.get('/api/runs')).json()) as { id: string }[];
    expect(list.map((run) => run.id).sort()).toEqual([play.on, play.off].sort());
    const neighbour = played[(i + 1) % played.length]!.on;
    const missing = 'run-that-never-was';
    for (const path of ['/api/runs/ID', '/api/runs/ID/events', '/api/runs/ID/trace']) {
      const refused = await play.visitor.get(path.replace('ID', neighbour));
      const unknown = await play.visitor.get(path.replace('ID', missing));
      expect(refused.status, path).toBe(404);
      expect((await refused.text()).replaceAll(neighbour, missing), path).toBe(await unknown.text());
    }
    const fork = await play.visitor.post('/api/runs', { fork: { runId: neighbour, atTurn: 1 } });
    expect(fork.status).toBe(404);
    const control = await play.visitor.post(`/api/runs/${neighbour}/control`, { action: 'abort' });
    expect(control.status).toBe(404);
  }

  // A limit says which: a visitor who starts a second lesson while the first plays is past their live runs.
  const eager = await join(ROOM_CODE);
  const first = await eager.post(`/api/lessons/${HELD}/play`, { timeScale: 1 });
  expect(first.status, await first.clone().text()).toBe(201);
  const second = await eager.post(`/api/lessons/${LESSONS_PLAYED[0]}/play`, { timeScale: TIME_SCALE });
  expect(second.status).toBe(429);
  expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(((await second.json()) as { limit: { name: string } }).limit.name).toBe('liveRuns');
  const held = (await first.json()) as { on: string; off: string };
  for (const id of [held.on, held.off]) {
    expect((await eager.post(`/api/runs/${id}/control`, { action: 'abort' })).status).toBe(202);
    await watch(eager, id);
  }

  // The board: the teacher's tally of each lesson is what the stored runs say, browsers' plays included.
  const board = (await (await teacher.get('/api/board')).json()) as Board;
  const all: Play[] = [
    ...played.map(({ visitor, slug, on, off }) => ({ get: visitor.get, slug, on, off })),
    ...inBrowsers,
  ];
  const status = async (play: Play, id: string) =>
    ((await (await play.get(`/api/runs/${id}`)).json()) as RunRecord).summary.status;
  for (const slug of LESSONS_PLAYED) {
    const mine = all.filter((play) => play.slug === slug);
    const lesson = lessonBySlug(slug)!;
    const onStatus = await Promise.all(mine.map((play) => status(play, play.on)));
    const offStatus = await Promise.all(mine.map((play) => status(play, play.off)));
    expect(board.lessons.find((t) => t.slug === slug)).toEqual({
      slug,
      title: lesson.title,
      played: mine.length,
      ended: mine.length,
      onCompleted: onStatus.filter((s) => s === 'completed').length,
      offFailed: offStatus.filter((s) => s === 'failed').length,
      // Each lesson's two sides part where its text says.
      diverged: lesson.diverges.turn === null ? 0 : mine.length,
    });
  }
  expect(board.lessons.find((t) => t.slug === HELD)).toMatchObject({ played: 1, ended: 1 });
  expect(board.visitors).toHaveLength(HTTP_VISITORS + LESSONS_PLAYED.length + 1);
  expect(board.inFlight).toEqual([]);
});
