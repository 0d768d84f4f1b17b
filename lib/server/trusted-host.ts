import { processEnv, serverEnv, type EnvSource } from '@/lib/config/server-env';

/**
 * The DNS-rebinding check, for every `/api` request (reads as well as writes), made once in
 * proxy.ts. A page on another site can re-point its own DNS name at 127.0.0.1: the browser
 * then treats this server as same-origin with that page, which may read anything it serves.
 * What gives it away is the Host header: the attacker's name. Loopback names and IP addresses
 * cannot be re-pointed; the name the server was told to listen on (LOOP_LAB_HOST) and the
 * names listed in LOOP_LAB_ALLOWED_HOSTS are expected; any other name is refused with a 403.
 * Only the spelling a browser sends is read: the name as its URL writes it (an IPv4 address in
 * four decimal parts, IPv6 compressed, nothing percent-encoded), with no trailing dot and no
 * userinfo — `127.0.0.1.:3000` or `0x7f.1` is not read as an IP address, it is refused.
 *
 * No `server-only` import: proxy.ts loads this outside the route bundles.
 */
export const ALLOWED_HOSTS_VAR = 'LOOP_LAB_ALLOWED_HOSTS';
export const LISTEN_HOST_VAR = 'LOOP_LAB_HOST';

/** True when `host` (a Host header: name or IP, with or without a port) is one this server expects. */
export function isTrustedHost(host: string, env: EnvSource = processEnv()): boolean {
  const name = hostnameOf(host);
  if (name === undefined) return false;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return true; // an IP address
  const { host: listenHost, allowedHosts } = serverEnv(env);
  const expected = [listenHost ?? '', ...allowedHosts].map((h) => h.toLowerCase()).filter(Boolean);
  return expected.includes(name) || expected.includes(host.toLowerCase());
}

/** The 403's words: what was refused, why, and the two ways to be let in. */
export function untrustedHostMessage(host: string): string {
  return (
    `Request refused: this server is not expected to be reached as "${host.slice(0, 200)}" (a page on another site can point its own ` +
    `name at this machine and read what it serves). Open Loop Lab at http://localhost or its IP address, or list the name in ${ALLOWED_HOSTS_VAR}`
  );
}

/** The name of a Host header (`name[:port]`) spelled as a browser spells it, or undefined for any other spelling. */
function hostnameOf(host: string): string | undefined {
  if (host === '' || /[\s/\\@?#]/.test(host)) return undefined;
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
  // The URL parser reads many spellings as one address (`127.0.0.1.`, `0x7f.1`, `2130706433`,
  // `loc%61lhost`); a browser sends only the one it writes. Any other spelling is not a browser's.
  const written = host.toLowerCase().replace(/:\d+$/, '');
  if (name !== written || name.endsWith('.')) return undefined;
  return name;
}

/**
 * True when `origin` (an Origin header) is spelled as a browser sends one: `scheme://host[:port]`
 * exactly as the URL standard serialises an origin (no userinfo, path or default port; lowercase;
 * no trailing dot), or `null` (a sandboxed or file: page).
 */
export function isBrowserOrigin(origin: string): boolean {
  if (origin === 'null') return true;
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.origin === origin &&
      !url.hostname.endsWith('.')
    );
  } catch {
    return false;
  }
}

/** The 403's words for an Origin no browser sends. */
export function unbrowserOriginMessage(origin: string): string {
  return (
    `Request refused: the Origin "${origin.slice(0, 200)}" is not one a browser sends (a browser writes scheme://host[:port], ` +
    "with no user name, path or trailing dot). Send no Origin from a tool, or the page's own origin from a browser"
  );
}
