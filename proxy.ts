import { NextResponse, type NextRequest } from 'next/server';
import { knownKeysRedactor } from '@/lib/server/request-keys';
import { JOIN_HINT, JOIN_PATH, roomMode, SHARED_PREFIX, sessionVisitor } from '@/lib/server/room-session';
import {
  isBrowserOrigin,
  isTrustedHost,
  unbrowserOriginMessage,
  untrustedHostMessage,
} from '@/lib/server/trusted-host';

/**
 * Runs before Next matches a route, for every `/api` request:
 * - a Host the server does not expect (a DNS-rebinding page reading or writing through the
 *   user's browser), or one not spelled as a browser spells it, gets a 403, reads included — the
 *   one place this is checked; so does an Origin no browser sends (userinfo, a path, a trailing dot);
 * - a path whose percent-encoding does not decode (`/api/runs/%E0%A4%A`) gets a JSON 400 saying
 *   so, instead of the router's HTML error page.
 * - in room mode (LOOP_LAB_ROOM_CODE, lib/server/room-session.ts), a request without a valid
 *   session (none, expired or tampered with) gets a 401 saying how to join, on every /api path
 *   but the one that joins and a share link's (`/api/shared/{token}…`: the token is the key);
 *   the routes check whose run, sweep, cassette or prompt set it is.
 * Request bodies pass through untouched: next.config.mjs lets the proxy buffer more than any
 * route accepts, so each route's own limit (lib/server/read-body.ts) is what refuses a large body.
 */
export function proxy(request: NextRequest): NextResponse | undefined | Promise<NextResponse | undefined> {
  const host = request.headers.get('host') ?? request.nextUrl.host;
  if (!isTrustedHost(host)) return refuse(403, untrustedHostMessage(host));
  const origin = request.headers.get('origin');
  if (origin !== null && !isBrowserOrigin(origin)) return refuse(403, unbrowserOriginMessage(origin));
  const bad = request.nextUrl.pathname.split('/').find((segment) => !decodes(segment));
  if (bad !== undefined)
    return refuse(
      400,
      `The path has a malformed percent-encoding in "${bad.slice(0, 100)}"; encode it with encodeURIComponent`,
    );
  // Outside room mode the proxy stays synchronous: nothing to unseal.
  // A share link's routes are open too: the token in the path is what lets a request in.
  const path = request.nextUrl.pathname;
  if (!roomMode() || path === JOIN_PATH || path.startsWith(SHARED_PREFIX)) return undefined;
  return sessionVisitor(request).then((visitor) =>
    visitor === undefined ? refuse(401, 'This Loop Lab is a room: join it first', JOIN_HINT) : undefined,
  );
}

/** A refusal quotes what was sent (a Host, an Origin, a path), so every key the server knows is taken out of it. */
function refuse(status: number, error: string, details?: string[]): NextResponse {
  return NextResponse.json(
    { error: knownKeysRedactor().text(error), ...(details ? { details } : {}) },
    { status, headers: { 'Cache-Control': 'no-store' } },
  );
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

export const config = { matcher: '/api/:path*' };
