import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { getIronSession, type SessionOptions } from 'iron-session';
import { serverEnv } from '@/lib/config/server-env';

/**
 * Room mode (LOOP_LAB_ROOM_CODE): a visitor enters the room code once and gets a session, a
 * cookie sealed (encrypted and signed) by iron-session, holding a visitor id made here. Without
 * the code set there is no room: every function here says so and the product is one user's.
 * Nothing here is server-only or throws an HTTP error, so proxy.ts can import it.
 */

/** The session cookie's name. */
export const ROOM_COOKIE = 'loop_lab_room';
/** A cookie the page can read, set with the session: "this browser is in a room" (it holds nothing else). */
export const ROOM_MEMBER_COOKIE = 'loop_lab_room_member';
/** The path that joins the room; the one /api path open without a session. */
export const JOIN_PATH = '/api/room/join';
/** Share links' routes (`/api/shared/{token}…`): open without a session, the token is the key. */
export const SHARED_PREFIX = '/api/shared/';
/** How long a session lasts: a school day and then some. */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

interface RoomSession {
  visitor?: string;
  /** Joined with the teacher code (LOOP_LAB_TEACHER_CODE): may open the board. */
  teacher?: boolean;
}

/** Whether this server is a room (LOOP_LAB_ROOM_CODE is set). */
export function roomMode(): boolean {
  return serverEnv().roomCode !== undefined;
}

const globalForSecret = globalThis as typeof globalThis & { __loopLabSessionSecret?: string };

/**
 * LOOP_LAB_SESSION_SECRET, or a random secret made when the process first needs one and kept
 * only in its memory (on globalThis, so the proxy and the routes share it): a restart then ends
 * every session, and the visitors enter the code again.
 */
function sessionPassword(): string {
  const configured = serverEnv().sessionSecret;
  if (configured) return configured;
  globalForSecret.__loopLabSessionSecret ??= randomBytes(32).toString('hex');
  return globalForSecret.__loopLabSessionSecret;
}

function sessionOptions(request: Request): SessionOptions {
  return {
    cookieName: ROOM_COOKIE,
    password: sessionPassword(),
    ttl: SESSION_TTL_SECONDS,
    cookieOptions: {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      // A room on a LAN is usually plain http, where a Secure cookie would never come back.
      secure: isHttps(request),
    },
  };
}

function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https' || new URL(request.url).protocol === 'https:';
}

/** Compares in constant time: the digests have one length whatever was typed. */
function codeMatches(sent: string, code: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(sent), digest(code));
}

/** What a request without a session is told. */
export const JOIN_HINT = [
  'open /room in a browser and enter the room code the teacher gives you,',
  `or POST ${JOIN_PATH} with {"code": "…"} and send back the ${ROOM_COOKIE} cookie it sets`,
];

/** The visitor id of the request's session; undefined without one (none, expired or tampered). */
export async function sessionVisitor(request: Request): Promise<string | undefined> {
  return (await sessionOf(request))?.visitor;
}

/** The request's session: its visitor id and whether it is the teacher's; undefined without one. */
export async function sessionOf(
  request: Request,
): Promise<{ visitor: string; teacher: boolean } | undefined> {
  if (!request.headers.get('cookie')?.includes(`${ROOM_COOKIE}=`)) return undefined;
  // iron-session reads the request's cookies; what it would set goes on a response never sent.
  const session = await getIronSession<RoomSession>(request, new Response(null), sessionOptions(request));
  if (typeof session.visitor !== 'string') return undefined;
  return { visitor: session.visitor, teacher: session.teacher === true };
}

/**
 * Whether `code` is this room's code ("ok") or its teacher code ("teacher"): "no room" when the
 * server is not one. Both comparisons always run, each in constant time.
 */
export function checkRoomCode(code: string): 'no room' | 'wrong' | 'ok' | 'teacher' {
  const { roomCode, teacherCode } = serverEnv();
  if (roomCode === undefined) return 'no room';
  const visitor = codeMatches(code, roomCode);
  const teacher = codeMatches(code, teacherCode ?? roomCode) && teacherCode !== undefined;
  return teacher ? 'teacher' : visitor ? 'ok' : 'wrong';
}

/**
 * Starts (or keeps) the request's session: a new visitor id, or the same one when the request
 * already has a valid session; its cookie is set on `headers`. Call only after checkRoomCode;
 * `teacher` marks the session as the teacher's (joined with the teacher code) or not.
 */
export async function startSession(
  request: Request,
  headers: Headers,
  teacher = false,
): Promise<{ visitor: string; teacher: boolean }> {
  // iron-session writes its Set-Cookie on a response's headers: copied onto the caller's.
  const written = new Response(null);
  const session = await getIronSession<RoomSession>(request, written, sessionOptions(request));
  session.visitor ??= randomUUID();
  session.teacher = teacher;
  await session.save();
  for (const cookie of written.headers.getSetCookie()) headers.append('set-cookie', cookie);
  return { visitor: session.visitor, teacher };
}
