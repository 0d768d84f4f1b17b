import 'server-only';
import {
  getVisitorStore,
  promptSetKey,
  type OwnedKind,
  type PromptSetStore,
  type RunStore,
} from '@/lib/store';
import { findCassette } from './cassette-library';
import { HttpError } from './http-error';
import { noteJoined, noteRunClaimed } from './room-board';
import {
  checkRoomCode,
  JOIN_HINT,
  ROOM_MEMBER_COOKIE,
  roomMode,
  SESSION_TTL_SECONDS,
  sessionVisitor,
  startSession,
} from './room-session';

/**
 * Room mode's ownership: each visitor's runs, sweeps, cassettes and prompt sets are theirs. A
 * route that reads or controls one asks `ownedBy` first; another visitor's is answered exactly
 * as a missing one is (404 with the route's own not-found message), so an id is never confirmed.
 * Outside room mode (visitor `null`) everything is everyone's, as before.
 */

/**
 * Whose request this is: `null` outside room mode (everything is everyone's), else the session's
 * visitor id. A request without a valid session is refused with 401 — by proxy.ts before any
 * route, and here again for a route called without the proxy (or without a request at all).
 */
export async function requestVisitor(request: Request | undefined): Promise<string | null> {
  if (!roomMode()) return null;
  const visitor = request && (await sessionVisitor(request));
  if (visitor === undefined) throw new HttpError(401, 'This Loop Lab is a room: join it first', JOIN_HINT);
  return visitor;
}

/**
 * Joins the room with `code`: a session, its cookie set on `headers`. 404 when the server is not
 * a room, 401 when the code is wrong (compared in constant time).
 */
export async function joinRoom({
  request,
  code,
  headers,
}: {
  request: Request;
  code: string;
  headers: Headers;
}): Promise<{ visitor: string; teacher: boolean }> {
  const checked = checkRoomCode(code);
  if (checked === 'no room')
    throw new HttpError(404, 'This Loop Lab is not a room: there is no code to enter', [
      'room mode is on when the server starts with LOOP_LAB_ROOM_CODE set (docs/room-mode.md)',
    ]);
  if (checked === 'wrong')
    throw new HttpError(401, 'That is not the room code', [
      'code: check it with the teacher (it is case-sensitive) and try again',
    ]);
  const session = await startSession(request, headers, checked === 'teacher');
  await noteJoined(session.visitor, session.teacher);
  // A member cookie the page may read (not the session: that one is httpOnly): the page opens
  // the teacher's notices only in a room, and makes no request for them outside one.
  headers.append(
    'set-cookie',
    `${ROOM_MEMBER_COOKIE}=1; Path=/; SameSite=Lax; Max-Age=${SESSION_TTL_SECONDS}`,
  );
  return session;
}

/** Throws the route's 404 unless `visitor` made this row (nothing to check outside room mode). */
export async function ownedBy(
  visitor: string | null,
  kind: OwnedKind,
  id: string,
  notFound: string,
): Promise<void> {
  if (visitor === null) return;
  if ((await getVisitorStore().visitorOf(kind, id)) !== visitor) throw new HttpError(404, notFound);
}

/** The request's visitor (401 in room mode without a session), checked as the maker of a run. */
export async function requestOwnsRun(
  request: Request,
  id: string,
  notFound = `No run with id "${id}"`,
): Promise<string | null> {
  const visitor = await requestVisitor(request);
  await ownedBy(visitor, 'run', id, notFound);
  return visitor;
}

/** The request's visitor, checked as the maker of a sweep. */
export async function requestOwnsSweep(
  request: Request,
  id: string,
  notFound = `No sweep with id "${id}"`,
): Promise<string | null> {
  const visitor = await requestVisitor(request);
  await ownedBy(visitor, 'sweep', id, notFound);
  return visitor;
}

/** Records the visitor as the maker of a row just stored (nothing outside room mode). */
export async function claimFor(visitor: string | null, kind: OwnedKind, id: string): Promise<void> {
  if (visitor === null) return;
  await getVisitorStore().claim(kind, id, visitor);
  // The teacher's board shows runs in flight: it hears of each as it starts and ends.
  if (kind === 'run') await noteRunClaimed(id);
}

/** Keeps the visitor's own rows of a list (all of them outside room mode). */
export async function ownRows<T>(
  visitor: string | null,
  kind: OwnedKind,
  rows: readonly T[],
  idOf: (row: T) => string,
): Promise<T[]> {
  if (visitor === null) return [...rows];
  const mine = await getVisitorStore().idsOf(kind, visitor);
  return rows.filter((row) => mine.has(idOf(row)));
}

/**
 * The run store as this visitor sees it: another visitor's run is not there (a fork of it is
 * refused as a fork of a missing run is). The store itself outside room mode.
 */
export function visibleRuns(visitor: string | null, store: RunStore): RunStore {
  if (visitor === null) return store;
  return {
    ...store,
    getRun: async (id) =>
      (await getVisitorStore().visitorOf('run', id)) === visitor ? store.getRun(id) : undefined,
  };
}

/** The prompt sets as this visitor sees them: only their own (all of them outside room mode). */
export function visiblePromptSets(
  visitor: string | null,
  store: Pick<PromptSetStore, 'getPromptSet'>,
): Pick<PromptSetStore, 'getPromptSet'> {
  if (visitor === null) return store;
  return {
    getPromptSet: async (name, version) =>
      (await getVisitorStore().visitorOf('prompt_set', promptSetKey(name, version))) === visitor
        ? store.getPromptSet(name, version)
        : undefined,
  };
}

/** A cassette by id as this visitor sees it: the shipped ones and their own saved ones. */
export async function visibleCassette(visitor: string | null, id: string): ReturnType<typeof findCassette> {
  const found = await findCassette(id);
  if (!found || visitor === null || found.summary.shipped) return found;
  return (await getVisitorStore().visitorOf('cassette', id)) === visitor ? found : undefined;
}
