import { afterAll, beforeAll, expect } from 'vitest';
import { useTempDataDir } from '@/lib/testing/api-test-env';
import { dispatch, ROUTES, type FuzzRequest } from './dispatch-route';

/**
 * What the room-mode tests share (scripts/api/room-mode.test.ts, scripts/api/room-ownership.test.ts,
 * scripts/api/room-links-and-board.test.ts): a room with its codes set, the visitors that join it
 * through the proxy and the real route handlers (dispatch-route.ts, as Next calls them), and the
 * runs and lists they ask for.
 */

export const CODE = 'blue-otter-42';
export const TEACHER_CODE = 'red-heron-7';
const ROOM_VARS = [
  'LOOP_LAB_ROOM_CODE',
  'LOOP_LAB_TEACHER_CODE',
  'LOOP_LAB_ROOM_LIVE_RUNS',
  'LOOP_LAB_ROOM_RUNS_PER_MIN',
  'LOOP_LAB_ROOM_SWEEP_RUNS',
] as const;

/**
 * A room for the file's tests: a data folder of its own (`loop-lab-<folder>-…`) and the room's codes
 * set before them; afterwards the room's settings, and who was in the room (this process's memory,
 * lib/server/room-board.ts), are left as they were found.
 */
export function useRoom(folder: string): void {
  useTempDataDir(`loop-lab-${folder}-`);
  const before = Object.fromEntries(ROOM_VARS.map((name) => [name, process.env[name]]));
  beforeAll(() => {
    process.env.LOOP_LAB_ROOM_CODE = CODE;
    process.env.LOOP_LAB_TEACHER_CODE = TEACHER_CODE;
  });
  afterAll(async () => {
    delete (globalThis as { __loopLabBoard?: unknown }).__loopLabBoard;
    for (const name of ROOM_VARS) {
      if (before[name] === undefined) delete process.env[name];
      else process.env[name] = before[name];
    }
  });
}

/** Runs `body` with one of the room's limits set to `value`, and unsets it after. */
export async function withRoomLimit(
  variable: (typeof ROOM_VARS)[number],
  value: string,
  body: () => Promise<void>,
): Promise<void> {
  process.env[variable] = value;
  try {
    await body();
  } finally {
    delete process.env[variable];
  }
}

export const VIRTUAL_RUN = { config: { provider: { vendor: 'sim-anthropic' }, clock: 'virtual' } };
/** A run that stays live for many seconds unless aborted. */
export const SLOW_RUN = { config: { provider: { vendor: 'sim-anthropic' }, clock: 'real', timeScale: 1 } };

/** A visitor: the cookie POST /api/room/join set, sent back with every request (a cookie jar of one). */
export interface Visitor {
  cookie: string;
  send(request: FuzzRequest): Promise<Response>;
}

export async function join(code = CODE): Promise<Visitor> {
  const response = await dispatch({ method: 'POST', path: '/api/room/join', body: JSON.stringify({ code }) });
  expect(response.status, await response.clone().text()).toBe(200);
  const set = response.headers.get('set-cookie') ?? '';
  expect(set).toMatch(/^loop_lab_room=[^;]+;/);
  expect(set).toMatch(/HttpOnly/i);
  expect(set).toMatch(/SameSite=Lax/i);
  return visitorWith(set.split(';')[0]!);
}

export function visitorWith(cookie: string): Visitor {
  return {
    cookie,
    send: (request) => dispatch({ ...request, headers: { ...request.headers, cookie } }),
  };
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

export async function startRun(visitor: Visitor, body: unknown = VIRTUAL_RUN): Promise<string> {
  const response = await visitor.send({ method: 'POST', path: '/api/runs', body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await json<{ id: string }>(response)).id;
}

/** Aborts one of `visitor`'s runs: the control is accepted (202). */
export async function abortRun(visitor: Visitor, id: string): Promise<void> {
  const abort = await visitor.send({
    method: 'POST',
    path: `/api/runs/${id}/control`,
    body: JSON.stringify({ action: 'abort' }),
  });
  expect(abort.status).toBe(202);
}

/** Plays a lesson as `visitor` at time scale 0.001: the ids of its two runs, the fix on and off. */
export async function playLesson(visitor: Visitor, slug: string): Promise<{ on: string; off: string }> {
  const played = await visitor.send({
    method: 'POST',
    path: `/api/lessons/${slug}/play`,
    body: JSON.stringify({ timeScale: 0.001 }),
  });
  expect(played.status, await played.clone().text()).toBe(201);
  return json<{ on: string; off: string }>(played);
}

export async function listIds(
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

export const asArray = (body: unknown) => body as unknown[];
/** The routes a share link opens: reads only, each of the one run the link names. */
export const SHARED_ROUTES = ROUTES.filter((route) => route.pattern.startsWith('/api/shared/')).map(
  (route) => route.pattern,
);
export const LISTS = {
  '/api/runs': asArray,
  '/api/sweeps': asArray,
  '/api/cassettes': (body: unknown) => (body as { cassettes: unknown[] }).cassettes,
  '/api/prompt-sets': asArray,
  '/api/tasks': (body: unknown) => (body as { uploaded: unknown[] }).uploaded,
} as const;
