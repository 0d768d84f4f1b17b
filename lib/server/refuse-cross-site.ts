import 'server-only';
import { HttpError } from './http-error';

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
 * a request whose Origin is not this host, or whose Sec-Fetch-Site says it came from another
 * site, or a browser's request to a DNS name the server does not expect (403), and a body that is not one of the route's non-simple media types (415), which
 * a cross-site page can only send after a preflight this server never answers. Tools that
 * send neither Origin nor Sec-Fetch-Site (curl, the tests) are not browsers and pass.
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
    if (!isTrustedHost(host)) {
      throw new HttpError(
        403,
        `Request refused: this server is not expected to be reached as "${host}" (a page on another site can point its own ` +
          `name at this machine). Open the playground at http://localhost or its IP address, or list the name in ${ALLOWED_HOSTS_VAR}`,
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

/**
 * A browser page reaching this server under a DNS name it does not expect may be a
 * DNS-rebinding attack: another site's name, re-pointed at 127.0.0.1, is same-origin with
 * itself. Loopback names and IP addresses cannot be re-pointed; other names must be listed.
 */
export const ALLOWED_HOSTS_VAR = 'LOOP_LAB_ALLOWED_HOSTS';

function isTrustedHost(host: string): boolean {
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return true; // an IP address
  const listed = (process.env[ALLOWED_HOSTS_VAR] ?? '').split(/[\s,]+/).filter(Boolean).map((h) => h.toLowerCase());
  return listed.includes(name) || listed.includes(host.toLowerCase());
}

/** host[:port] of an Origin header, or undefined for "null" and anything that is not a URL. */
function hostOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
