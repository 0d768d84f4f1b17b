import 'server-only';
import { HttpError } from './http-error';
import { isBrowserOrigin } from './trusted-host';

/** Sec-Fetch-Site values a browser sends for the app's own pages (or a typed URL / bookmark). */
const OWN_SITE = new Set(['same-origin', 'none']);

export interface RefuseCrossSiteOptions {
  request: Request;
  /** Media types the route reads; none of them may be a CORS-simple type (text/plain, forms). */
  accept?: readonly string[];
}

/**
 * The guard every state-changing route calls first. A page on another site can make a
 * browser POST to a server on localhost; with a CORS-simple body it needs no preflight, so
 * such a page could start runs (and spend keys) on the user's Loop Lab. Refused here:
 * a request whose Origin is not this host (or not spelled as a browser spells one: no userinfo,
 * path or trailing dot), or whose Sec-Fetch-Site says it came from another site (403), and a body that is not one of the route's non-simple media types (415), which
 * a cross-site page can only send after a preflight this server never answers. Tools that
 * send neither Origin nor Sec-Fetch-Site (curl, the tests) are not browsers and pass. A Host the
 * server does not expect (DNS rebinding) is refused before any route, reads included, by
 * proxy.ts (trusted-host.ts).
 */
export function refuseCrossSite({ request, accept = ['application/json'] }: RefuseCrossSiteOptions): void {
  const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site && !OWN_SITE.has(site)) {
    throw new HttpError(
      403,
      `Cross-site request refused: the browser says it came from another site (Sec-Fetch-Site: ${site}). ` +
        'Loop Lab only accepts changes from its own pages; use the playground, the CLI, or a client that is not a web page',
    );
  }
  const origin = request.headers.get('origin');
  if (origin !== null) {
    const host = request.headers.get('host') ?? new URL(request.url).host;
    if (hostOf(origin) !== host.toLowerCase()) {
      throw new HttpError(
        403,
        `Cross-site request refused: Origin ${origin} is not this server (${host}). ` +
          'Loop Lab only accepts changes from its own pages; open the playground at the address the server listens on',
      );
    }
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!accept.includes(type)) {
    throw new HttpError(
      415,
      `Unsupported Content-Type ${type ? `"${type}"` : '(none)'}: send the body as ${accept.join(' or ')}`,
    );
  }
}

/** host[:port] of an Origin header spelled as a browser spells one, or undefined for "null" and any other spelling. */
function hostOf(origin: string): string | undefined {
  if (origin === 'null' || !isBrowserOrigin(origin)) return undefined;
  return new URL(origin).host;
}
