import type { RunEvent } from '@/lib/protocol';
import { isStoredEvent } from '@/lib/protocol/http/stored-event';
import { ApiError, traceUrl } from './client';

/** Longest the reader parses before the page gets the main thread back (a frame is ~16 ms). */
export const PARSE_SLICE_MS = 8;
/** Bytes decoded at a time. */
const PIECE_BYTES = 64 * 1024;

export interface ReadRunLogOptions {
  /** How many events are in so far, after each slice. */
  onProgress?: (received: number) => void;
  signal?: AbortSignal;
  now?: () => number;
  /** Gives the main thread back between slices. */
  yieldToPage?: () => Promise<void>;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A stored run's whole log, read from GET /api/runs/{id}/trace (JSONL, one stored event a
 * line) as it arrives: each line parsed and its envelope checked (stored-event.ts), in slices
 * of at most PARSE_SLICE_MS so a long log never holds a frame. A line that is no stored event is
 * an ApiError naming its line.
 */
export async function readRunLog(
  id: string,
  { onProgress, signal, now = () => performance.now(), yieldToPage = nextTask }: ReadRunLogOptions = {},
): Promise<RunEvent[]> {
  const url = traceUrl(id);
  const response = await fetch(url, { signal, cache: 'no-store' });
  if (!response.ok || !response.body)
    throw new ApiError(`GET ${url}: ${response.status} ${response.statusText}`.trim(), response.status);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const log: RunEvent[] = [];
  // Text received and not yet parsed: at most a piece and a line, never the whole log at once.
  let pending = '';
  let lineNo = 0;
  // A slice spans chunks: reading a chunk already received gives the page nothing back (a microtask).
  let sliceStart = now();

  const parseLine = (line: string) => {
    lineNo += 1;
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (!isStoredEvent(value))
      throw new ApiError(
        `GET ${url}: line ${lineNo} is not a stored event (run_id, seq, event)`,
        response.status,
      );
    log.push(value);
  };
  const endSlice = async () => {
    onProgress?.(log.length);
    await yieldToPage();
    if (signal?.aborted) throw signal.reason;
    sliceStart = now();
  };

  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // A chunk may be the whole log (a fast connection): decoded a piece at a time, each line parsed as it is found.
    for (let at = 0; at < value.length; at += PIECE_BYTES) {
      pending += decoder.decode(value.subarray(at, at + PIECE_BYTES), { stream: true });
      let from = 0;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', from)) {
        parseLine(pending.slice(from, end));
        from = end + 1;
        if (now() - sliceStart >= PARSE_SLICE_MS) await endSlice();
      }
      pending = pending.slice(from);
    }
  }
  pending += decoder.decode();
  if (pending !== '') parseLine(pending);
  onProgress?.(log.length);
  return log;
}
