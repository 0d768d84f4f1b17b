import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { ADDRESS_KIND_WORDS, addressKindOf, type AddressKind } from './base-url-address';

/** A DNS lookup with every address: node:dns's by default, a table in tests. */
export type ResolveAll = (hostname: string) => Promise<dns.LookupAddress[]>;

const systemResolve: ResolveAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A base URL whose name resolves where a run request may not point the server. */
export class BaseUrlAddressError extends Error {
  override readonly name = 'BaseUrlAddressError';
  /** A code, so the classifier's message names this refusal beneath the SDK's "Connection error.". */
  readonly code = 'LOOP_LAB_BASE_URL_ADDRESS';
}

export interface AddressGuard {
  /** Loopback and private addresses are allowed (the host is listed in the environment); link-local and metadata never are. */
  allowPrivate: boolean;
  /** The environment setting that would allow a loopback or private address, for the message. */
  howToAllow: (url: URL) => string;
}

/** The kind of a resolved address (as dns gives it: IPv6 without brackets), or undefined for a public one. */
export function resolvedKindOf(address: string, family: number): AddressKind | undefined {
  return addressKindOf(family === 6 ? `[${address}]` : address);
}

/**
 * Why `url`'s host may not be reached at the addresses its name resolves to, or undefined. Every
 * address is classified, not only the first: a name that answers with a public and a loopback
 * address is refused.
 */
export function refusalFor(
  url: URL,
  addresses: dns.LookupAddress[],
  guard: AddressGuard,
): string | undefined {
  for (const { address, family } of addresses) {
    const kind = resolvedKindOf(address, family);
    if (kind === undefined) continue;
    const where = `provider.baseUrl's host ${url.hostname} resolves to ${address}, ${ADDRESS_KIND_WORDS[kind]}`;
    if (kind === 'metadata' || kind === 'link-local')
      return `${where}: a run request may never point the server there`;
    if (!guard.allowPrivate)
      return `${where}, which a run request may point the server at only when the server's environment names it: ${guard.howToAllow(url)}`;
  }
  return undefined;
}

/**
 * A fetch over node:http(s) that resolves the host itself, refuses it when any of its addresses
 * is one a run request may not reach (refusalFor), and connects to an address it checked: the
 * check runs inside the connection's own lookup, so a name that answers a public address to a
 * first lookup and a loopback one to a second (DNS rebinding) cannot slip between check and
 * connect. Every request opens its own connection (no shared keep-alive pool: a socket opened
 * for one run's allowed host must not carry another's request), so every request is checked.
 * Responses are streamed as they arrive, and the request's signal aborts the socket.
 */
export function createPinnedFetch(options: { guard: AddressGuard; resolve?: ResolveAll }): typeof fetch {
  const resolve = options.resolve ?? systemResolve;
  return (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const body =
      init?.body == null
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : Buffer.from(await new Response(init.body).arrayBuffer());
    // A declared length, as the platform fetch sends for a known body (some local servers refuse chunked requests).
    if (body !== undefined && !headers.has('content-length'))
      headers.set('content-length', String(Buffer.byteLength(body)));
    // node:http does not decompress: ask for the body as it is (the platform fetch would decode it).
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity');
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();

    const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
      resolve(hostname).then(
        (addresses) => {
          const refusal = refusalFor(url, addresses, options.guard);
          if (refusal) return callback(new BaseUrlAddressError(refusal), '', 0);
          const family =
            lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : undefined;
          const usable = family ? addresses.filter((a) => a.family === family) : addresses;
          if (usable.length === 0)
            return callback(
              Object.assign(new Error(`no IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }),
              '',
              0,
            );
          if (lookupOptions.all)
            return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
          callback(null, usable[0]!.address, usable[0]!.family);
        },
        (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
      );
    };

    const client = url.protocol === 'https:' ? https : http;
    return await new Promise<Response>((resolveResponse, reject) => {
      const request = client.request(
        url,
        { method, headers: Object.fromEntries(headers), lookup, agent: false, ...(signal ? { signal } : {}) },
        (res) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              responseHeaders.append(name, one);
          }
          const status = res.statusCode ?? 502;
          const empty = method === 'HEAD' || status === 204 || status === 205 || status === 304;
          if (empty) res.resume();
          const stream = empty ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
          resolveResponse(
            new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }) as typeof fetch;
}
