import { readFileSync } from 'node:fs';
import type { ModelRequest, ProviderAdapter, StreamOptions, StreamPart } from './types';

/** The raw bytes of a recorded-form wire fixture in ./fixtures. */
export function loadFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
}

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  bodyText: string;
}

export interface FixtureFetchOptions {
  body: Uint8Array | string;
  status?: number;
  headers?: Record<string, string>;
  /** Bytes per network read; small values split records and UTF-8 characters mid-way. */
  chunkSize?: number;
  /** Serve this many bytes, then hang (like a stalled connection) until aborted. */
  stallAfterBytes?: number;
}

/**
 * A fetch that answers every request with one fixture as a streaming body, and records
 * what the SDK sent. It honours `init.signal` the way a real fetch does: an abort before
 * the response rejects, an abort during the body errors the body.
 */
export function fixtureFetch(options: FixtureFetchOptions): {
  fetch: typeof fetch;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const bytes = typeof options.body === 'string' ? new TextEncoder().encode(options.body) : options.body;
  const chunkSize = options.chunkSize ?? 64;

  const fetchFixture = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    requests.push({
      url: input instanceof Request ? input.url : String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      bodyText: typeof init?.body === 'string' ? init.body : '',
    });
    const limit = Math.min(options.stallAfterBytes ?? bytes.length, bytes.length);
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
      },
      pull(controller) {
        if (offset < limit) {
          const end = Math.min(offset + chunkSize, limit);
          controller.enqueue(bytes.slice(offset, end));
          offset = end;
          return undefined;
        }
        if (options.stallAfterBytes === undefined) {
          controller.close();
          return undefined;
        }
        return new Promise<void>(() => {});
      },
    });
    return new Response(body, { status: options.status ?? 200, headers: options.headers });
  };
  return { fetch: fetchFixture as typeof fetch, requests };
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8' };

/** Streams a request through an adapter and returns every part (rejects as the stream does). */
export async function collectParts(
  provider: ProviderAdapter,
  request: ModelRequest,
  options: Omit<StreamOptions, 'onPart'>,
): Promise<StreamPart[]> {
  const out: StreamPart[] = [];
  await provider.stream(request, { ...options, onPart: (part) => out.push(part) });
  return out;
}
