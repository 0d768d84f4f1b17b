import { processEnv } from '@/lib/config/server-env';
import { ALLOWED_BASE_URLS_VAR, environmentBaseUrls, listed, REQUEST_HOSTS_VAR } from './client-config';
import { createPinnedFetch, type ResolveAll } from './pinned-fetch';

/**
 * The fetch under a real vendor. A request to a base URL the server's environment names (the
 * official endpoints, *_BASE_URL, LOOP_LAB_ALLOWED_BASE_URLS) is the platform's fetch, as it
 * always was; any other URL was chosen by a run request, and its host's name is resolved and
 * every address checked at connect time, on the connection that is then used (pinned-fetch.ts):
 * resolveClientConfig can only judge what the URL spells, and a public-looking name may resolve
 * to this machine, the local network or a metadata service. Loopback and private addresses are
 * allowed when the host is listed in LOOP_LAB_ALLOWED_REQUEST_HOSTS, as for a literal address.
 * The environment is read at each request, like the client's own check.
 */
export function createRealVendorFetch(
  options: { env?: Record<string, string | undefined>; resolve?: ResolveAll } = {},
): typeof fetch {
  const envOf = (): Record<string, string | undefined> => options.env ?? processEnv();
  const pinned = (allowPrivate: boolean): typeof fetch =>
    createPinnedFetch({
      guard: {
        allowPrivate,
        howToAllow: (url) =>
          `set ${REQUEST_HOSTS_VAR}=${url.host} where the server starts to let runs that bring their own key use it ` +
          `(a local model server), or name the base URL in ${ALLOWED_BASE_URLS_VAR}`,
      },
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    const href = input instanceof Request ? input.url : String(input);
    const env = envOf();
    if (
      environmentBaseUrls(env).some(
        (base) => href === base || href.startsWith(`${base}/`) || href.startsWith(`${base}?`),
      )
    ) {
      return globalThis.fetch(input, init);
    }
    return pinned(listed(env[REQUEST_HOSTS_VAR], new URL(href)))(input, init);
  }) as typeof fetch;
}
