/** What a vendor's stream said to keep the connection open: Anthropic's `event: ping`, or an SSE comment line. */
export type KeepaliveStyle = 'ping' | 'comment';

const LF = 10;
const CR = 13;
const COLON = 58;
const PING_LINES = ['event: ping', 'event:ping'].map((line) => Array.from(line, (c) => c.charCodeAt(0)));
const ALL = (1 << PING_LINES.length) - 1;

/**
 * Reads SSE bytes line by line without decoding or keeping them: a line that starts with `:`
 * is a comment (OpenAI-compatible servers' keepalive), a line that is exactly `event: ping`
 * is Anthropic's. Only the first few bytes of a line are held, across chunk boundaries.
 */
export class KeepaliveScanner {
  private column = 0;
  /** Which ping lines the line so far still matches (one bit each). */
  private candidates = ALL;
  private readonly onKeepalive: (style: KeepaliveStyle) => void;

  constructor(onKeepalive: (style: KeepaliveStyle) => void) {
    this.onKeepalive = onKeepalive;
  }

  scan(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === LF || byte === CR) {
        if (
          this.candidates !== 0 &&
          PING_LINES.some((line, k) => this.candidates & (1 << k) && line.length === this.column)
        )
          this.onKeepalive('ping');
        this.column = 0;
        this.candidates = ALL;
        continue;
      }
      if (this.column === 0 && byte === COLON) {
        this.onKeepalive('comment');
        this.candidates = 0;
      }
      if (this.candidates !== 0) {
        for (let k = 0; k < PING_LINES.length; k++)
          if (PING_LINES[k]![this.column] !== byte) this.candidates &= ~(1 << k);
      }
      this.column++;
      if (this.candidates === 0) {
        // Nothing more to learn from this line: skip to its end.
        i = nextLineEnd(chunk, i + 1) - 1;
      }
    }
  }
}

function nextLineEnd(chunk: Uint8Array, from: number): number {
  for (let j = from; j < chunk.length; j++) if (chunk[j] === LF || chunk[j] === CR) return j;
  return chunk.length;
}

/**
 * A real vendor's keepalives made visible: the SDK drops `event: ping` and comment lines (so
 * they never reset the watchdog, rightly), and without this the log never learns they came.
 * The tap wraps a streaming response's body: each chunk is scanned and handed on as the same
 * object, read only when the SDK reads (no copy, no buffering ahead); `beat` fires per
 * keepalive and `end` once when the stream ends, fails or is cancelled — the same reports the
 * fault wrapper gives for the keepalives it injects (lib/runtime/keepalive-log.ts coalesces).
 */
export function tapKeepalives(options: {
  fetch: typeof fetch;
  /** Called per request as it goes out; returns what to call for each keepalive on its response. */
  onRequest: (
    init: RequestInit | undefined,
  ) => (info: { style: KeepaliveStyle; phase: 'beat' | 'end' }) => void;
}): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const report = options.onRequest(init);
    const response = await options.fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !response.body || !type.includes('text/event-stream')) return response;
    return new Response(tappedBody(response.body, report), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }) as typeof fetch;
}

function tappedBody(
  body: ReadableStream<Uint8Array>,
  report: (info: { style: KeepaliveStyle; phase: 'beat' | 'end' }) => void,
): ReadableStream<Uint8Array> {
  let last: KeepaliveStyle | undefined;
  const scanner = new KeepaliveScanner((style) => {
    last = style;
    report({ style, phase: 'beat' });
  });
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    if (last) report({ style: last, phase: 'end' });
  };
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          end();
          controller.error(error);
          return;
        }
        if (chunk.done) {
          end();
          controller.close();
          return;
        }
        scanner.scan(chunk.value);
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
