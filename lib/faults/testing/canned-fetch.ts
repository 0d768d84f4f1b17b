import { abortReason } from '@/lib/clock';

/**
 * A vendor stand-in for tests: answers every request with one canned SSE stream, cut into
 * odd-sized byte chunks (so records and UTF-8 characters straddle chunk boundaries) and
 * honouring the request's signal like undici does (the body errors with the reason).
 */
export function cannedSseFetch(options: {
  sse: string;
  chunkBytes?: number;
  lineEnding?: 'lf' | 'crlf';
  dialect?: 'anthropic' | 'openai';
}): typeof fetch & { calls: number } {
  const text = options.lineEnding === 'crlf' ? options.sse.replace(/\n/g, '\r\n') : options.sse;
  const bytes = new TextEncoder().encode(text);
  const size = options.chunkBytes ?? 37;
  const state = { calls: 0 };

  const canned = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    state.calls += 1;
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        signal?.addEventListener('abort', () => controller.error(abortReason(signal)), { once: true });
      },
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(offset, offset + size));
        offset += size;
      },
    });
    const idHeader = options.dialect === 'openai' ? 'x-request-id' : 'request-id';
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', [idHeader]: 'req_canned' },
    });
  };
  return Object.defineProperty(canned, 'calls', { get: () => state.calls }) as typeof fetch & {
    calls: number;
  };
}
