import type { Clock } from '@/lib/clock';
import { CASSETTE_REQUEST_HEADERS, CASSETTE_RESPONSE_HEADERS, WIRE_KEY_HEADERS, WIRE_KEY_PLACEHOLDER, type CassetteChunk, type CassetteExchange, type CassetteResponse, type Vendor, type WireExchange } from '@/lib/protocol';

export interface RecordExchangesOptions {
  fetch: typeof fetch;
  clock: Clock;
  /** The request's number in the run (the fault wrapper's count), by its init. */
  requestNo: (init: RequestInit | undefined) => number;
  /** The vendor in force and the dialect it speaks. */
  vendor: () => Vendor;
  dialect: () => string;
  /** The run's redaction in force: every key it knows, in every form, removed from the request and the response. */
  redact: (text: string) => string;
  /** Called with each exchange once its response has ended (or failed); numbered by request. */
  onExchange: (exchange: CassetteExchange) => void;
}

/**
 * A fetch wrapper that records each exchange as it crosses: the request as sent (its path, the
 * allow-listed headers, the body) and the response as received (status, allow-listed headers,
 * each read of the body with the run time since the read before, and how the body ended). It
 * sits beneath the fault wrapper, so what it keeps is what the vendor sent, not a fault; the
 * body it hands on is the same bytes, read once.
 */
export function recordExchanges(options: RecordExchangesOptions): typeof fetch {
  const { redact } = options;
  return tapExchanges({
    fetch: options.fetch,
    clock: options.clock,
    redact,
    responseHeaders: (headers) => allowed(headers, CASSETTE_RESPONSE_HEADERS),
    head: (input, init) => ({
      n: options.requestNo(init),
      vendor: options.vendor(),
      dialect: options.dialect(),
      request: {
        method: init?.method ?? 'GET',
        path: pathOf(input),
        headers: allowed(new Headers(init?.headers), CASSETTE_REQUEST_HEADERS),
        body: redact(bodyText(init?.body)),
      },
    }),
    onExchange: options.onExchange,
  });
}

export interface RecordWireOptions {
  fetch: typeof fetch;
  clock: Clock;
  requestNo: (init: RequestInit | undefined) => number;
  vendor: () => Vendor;
  dialect: () => string;
  /** The run's redaction in force: applied to every header value, the URL, the body and the response. */
  redact: (text: string) => string;
  /** Called with each request's wire once its response has ended (or failed). */
  onWire: (exchange: WireExchange) => void;
}

/**
 * The wire view's recorder: the same tap as a cassette's, placed just beneath the SDK (above the
 * fault wrapper), so it keeps what the SDK sent and what it received, faults included. It keeps
 * every header (a key-bearing header's value replaced by WIRE_KEY_PLACEHOLDER, every other value
 * redacted) and the URL, so the request can be sent again as it was (lib/client/wire/as-code.ts).
 */
export function recordWire(options: RecordWireOptions): typeof fetch {
  const { redact, clock } = options;
  return tapExchanges({
    fetch: options.fetch,
    clock,
    redact,
    responseHeaders: (headers) => everyHeader(headers, redact),
    head: (input, init) => ({
      n: options.requestNo(init),
      vendor: options.vendor(),
      dialect: options.dialect(),
      at_ms: clock.now(),
      request: {
        method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
        url: redact(urlOf(input)),
        headers: everyHeader(new Headers(init?.headers), redact, WIRE_KEY_HEADERS),
        body: redact(bodyText(init?.body)),
      },
    }),
    onExchange: options.onWire,
  });
}

/**
 * The tap both recorders share: the head of each exchange taken as the request goes out, then
 * the response as received (status, headers, each read of the body with the run time since the
 * read before, and how the body ended), handed on once the body has ended or failed. The body it
 * passes up is the same bytes, read once.
 */
function tapExchanges<Head extends object>(options: {
  fetch: typeof fetch;
  clock: Clock;
  redact: (text: string) => string;
  head: (input: RequestInfo | URL, init: RequestInit | undefined) => Head;
  responseHeaders: (headers: Headers) => Record<string, string>;
  onExchange: (exchange: Head & { response?: CassetteResponse; failure?: string }) => void;
}): typeof fetch {
  const { clock, redact } = options;
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const started = clock.now();
    const head = options.head(input, init);
    let response: Response;
    try {
      response = await options.fetch(input, init);
    } catch (error) {
      options.onExchange({ ...head, failure: redact(messageOf(error)).slice(0, 2_000) });
      throw error;
    }
    let last = clock.now();
    const base = { status: response.status, headers: options.responseHeaders(response.headers), after_ms: last - started };
    const reads: Array<{ after_ms: number; bytes: Uint8Array }> = [];
    let ended = false;
    const end = (how: CassetteResponse['end'], error?: unknown): void => {
      if (ended) return;
      ended = true;
      const failure = how === 'error' ? { error: redact(messageOf(error)).slice(0, 2_000) } : {};
      options.onExchange({ ...head, response: { ...base, chunks: chunksOf(reads, redact), end: how, ...failure } });
    };
    if (!response.body) {
      end('complete');
      return response;
    }
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const step = await reader.read();
            if (step.done) {
              end('complete');
              controller.close();
              return;
            }
            const now = clock.now();
            reads.push({ after_ms: now - last, bytes: step.value });
            last = now;
            controller.enqueue(step.value);
          } catch (error) {
            // An abort is the client stopping (its watchdog, the user): the server had sent no more.
            end(init?.signal?.aborted ? 'cut' : 'error', error);
            controller.error(error);
          }
        },
        cancel(reason) {
          end('cut');
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }) as typeof fetch;
}

/**
 * The reads as cassette chunks: text where the bytes are UTF-8, base64 where a read ends inside
 * a character. The redaction runs on the whole body; a key split across two reads, which no
 * single read shows, is found there, and those reads are then kept as one chunk.
 */
function chunksOf(reads: ReadonlyArray<{ after_ms: number; bytes: Uint8Array }>, redact: (text: string) => string): CassetteChunk[] {
  const texts = reads.map((r) => decodeExactly(r.bytes));
  const whole = new TextDecoder().decode(concat(reads.map((r) => r.bytes)));
  const redactedWhole = redact(whole);
  const each = texts.map((t) => (t === undefined ? undefined : redact(t)));
  const allText = each.every((t) => t !== undefined);
  if (redactedWhole === whole || (allText && each.join('') === redactedWhole)) {
    return reads.map((r, i) => (each[i] !== undefined ? { after_ms: r.after_ms, text: each[i] } : { after_ms: r.after_ms, base64: Buffer.from(r.bytes).toString('base64') }));
  }
  const waited = reads.reduce((sum, r) => sum + r.after_ms, 0);
  return [{ after_ms: waited, text: redactedWhole }];
}

function decodeExactly(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function allowed(headers: Headers, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** Every header, each value redacted; a header named in `keyHeaders` keeps its name with the key replaced. */
function everyHeader(headers: Headers, redact: (text: string) => string, keyHeaders: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = keyHeaders.includes(name) ? keyPlaceholder(value) : redact(value);
  });
  return out;
}

/** A credential header's value with the credential replaced: `Bearer sk-…` keeps its scheme. */
function keyPlaceholder(value: string): string {
  const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
  return `${scheme}${WIRE_KEY_PLACEHOLDER}`;
}

/** The URL without any credentials in it (`user:pass@`); its query is kept (the caller redacts it). */
function urlOf(input: RequestInfo | URL): string {
  const text = input instanceof Request ? input.url : String(input);
  try {
    const url = new URL(text);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return text;
  }
}

function pathOf(input: RequestInfo | URL): string {
  const url = input instanceof Request ? input.url : String(input);
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

function bodyText(body: RequestInit['body']): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
  return '';
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
  return String(error);
}
