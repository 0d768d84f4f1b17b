/**
 * One SSE record as it came over the wire: its exact text (re-emitted unchanged, so a
 * fault wrapper adds no bytes of its own) and its parsed fields.
 */
export interface SseRecord {
  /** The record's text including its terminating blank line (absent on a cut tail). */
  raw: string;
  event?: string;
  /** The `data:` lines joined with "\n", as the SDK decoders join them. */
  data?: string;
  /** A record with neither event nor data (only comments, e.g. `: keepalive`). */
  commentOnly: boolean;
  /** The stream ended before this record's blank line. */
  incomplete: boolean;
}

const LINE_END = /\r\n|\r|\n/;

/**
 * Reads a byte stream as SSE records. Records are blank-line separated; lines end in \n,
 * \r\n or \r; a record or a UTF-8 character may be split across chunks at any byte.
 */
export class SseRecordReader {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private lines: string[] = [];
  private rawParts: string[] = [];
  private done = false;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  async next(): Promise<SseRecord | null> {
    for (;;) {
      const record = this.takeRecord();
      if (record) return record;
      if (this.done) return this.takeTail();
      const { value, done } = await this.reader.read();
      if (done) {
        this.buffer += this.decoder.decode();
        this.done = true;
      } else {
        this.buffer += this.decoder.decode(value, { stream: true });
      }
    }
  }

  cancel(reason?: unknown): void {
    this.reader.cancel(reason).catch(() => undefined);
  }

  /** Consumes complete lines from the buffer until a blank line closes a record. */
  private takeRecord(): SseRecord | null {
    for (;;) {
      const match = LINE_END.exec(this.buffer);
      if (!match) return null;
      // A lone \r at the end of the buffer may be the first half of \r\n: wait for more.
      if (match[0] === '\r' && match.index === this.buffer.length - 1 && !this.done) return null;
      const line = this.buffer.slice(0, match.index);
      const text = this.buffer.slice(0, match.index + match[0].length);
      this.buffer = this.buffer.slice(text.length);
      this.rawParts.push(text);
      if (line !== '') {
        this.lines.push(line);
        continue;
      }
      // A blank line with nothing before it is only spacing: it travels with the next record.
      if (this.lines.length === 0) continue;
      return this.flush(false);
    }
  }

  private takeTail(): SseRecord | null {
    if (this.buffer !== '') {
      this.rawParts.push(this.buffer);
      this.lines.push(this.buffer);
      this.buffer = '';
    }
    return this.lines.length > 0 || this.rawParts.length > 0 ? this.flush(true) : null;
  }

  private flush(incomplete: boolean): SseRecord {
    const record = parseRecord(this.lines, this.rawParts.join(''), incomplete);
    this.lines = [];
    this.rawParts = [];
    return record;
  }
}

function parseRecord(lines: string[], raw: string, incomplete: boolean): SseRecord {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of lines) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return {
    raw,
    ...(event !== undefined ? { event } : {}),
    ...(data.length > 0 ? { data: data.join('\n') } : {}),
    commentOnly: event === undefined && data.length === 0,
    incomplete,
  };
}
