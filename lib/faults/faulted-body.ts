import type { Clock } from '@/lib/clock';
import type { Dialect, FaultAction } from '@/lib/protocol';
import { contentKindOf } from './content-kind';
import { isFinalRecord } from './final-record';
import { keepaliveBeat } from './keepalive-body';
import { lazyStream, raceAbort, untilAborted } from './lazy-stream';
import { SseRecordReader, type SseRecord } from './sse-records';
import { socketTerminated } from './undici-errors';
import { inStreamErrorRecord } from '@/lib/dialects';

export type StreamFaultAction = Extract<
  FaultAction,
  { type: 'stall' | 'slow_drip' | 'drop' | 'sse_error' | 'malformed' | 'keepalive_only' }
>;

/** A record the SDKs count as an event: it has an event name or data (comments do not). */
const counts = (record: SseRecord): boolean => !record.commentOnly;

/** A record the SDK will JSON.parse (pings are dropped by the Anthropic SDK unparsed). */
const isParsedJson = (record: SseRecord): boolean =>
  !record.incomplete && record.event !== 'ping' && record.data !== undefined && record.data.startsWith('{');

/**
 * Wraps a real SSE body and corrupts it the way networks and vendors do: silence, slow
 * records, a dropped socket, the vendor's own error event, a record cut short, or nothing
 * but keepalives. The fault strikes at its point — after `afterEvents` records, just after
 * the first record of a content block of a kind, or at the final delta, whichever comes
 * first — and records before it are re-emitted byte for byte.
 */
export function faultedBody(options: {
  body: ReadableStream<Uint8Array>;
  action: StreamFaultAction;
  dialect: Dialect;
  framing: 'chat' | 'responses';
  model: string;
  clock: Clock;
  signal?: AbortSignal | null | undefined;
  /** The stream ended before the fault's point: nothing was changed. */
  onMissed?: () => void;
  /** A keepalive_only fault: each keepalive as it goes out, and once when the stream ends. */
  onKeepalive?: (phase: 'beat' | 'end') => void;
}): ReadableStream<Uint8Array> {
  const { action, clock } = options;
  const records = new SseRecordReader(options.body.getReader());
  const { during } = action;
  // With no point named the fault strikes at once (a slow drip paces the whole stream).
  const afterEvents = action.afterEvents ?? (during === undefined ? 0 : undefined);

  let responseId: string | undefined;

  /** What the fault does once its point is reached; returns true when the stream is over. */
  async function* strike(stop: AbortSignal, passed: number): AsyncGenerator<string, boolean, undefined> {
    switch (action.type) {
      case 'stall':
        return await untilAborted(stop);
      case 'drop':
        throw socketTerminated();
      case 'keepalive_only': {
        const beat = keepaliveBeat({ dialect: options.dialect, style: action.style });
        for (;;) {
          await clock.sleep(action.intervalMs, stop);
          options.onKeepalive?.('beat');
          yield beat;
        }
      }
      case 'sse_error':
        yield inStreamErrorRecord({
          dialect: options.dialect,
          framing: options.framing,
          model: options.model,
          errorType: action.errorType,
          sequenceNumber: passed,
          ...(action.responsesEvent ? { responsesEvent: action.responsesEvent } : {}),
          ...(responseId ? { responseId } : {}),
        });
        return true;
      default:
        // malformed and slow_drip act on the records that follow.
        return false;
    }
  }

  async function* steps(stop: AbortSignal): AsyncGenerator<string, void, undefined> {
    let passed = 0;
    let struck = false;
    for (;;) {
      if (!struck && afterEvents !== undefined && passed >= afterEvents) {
        struck = true;
        if (yield* strike(stop, passed)) return;
      }
      const record = await raceAbort(records.next(), stop);
      if (record === null) {
        // The stream ended before the fault's point: a malformed fault still leaves its mark.
        if (action.type === 'malformed') yield cutShort(fallbackRecord(options.dialect));
        else if (!struck) options.onMissed?.();
        return;
      }
      // The final delta is struck before it passes: everything but the verdict has arrived.
      if (!struck && during === 'final' && isFinalRecord(record.data)) {
        struck = true;
        if (yield* strike(stop, passed)) return;
      }
      if (struck && action.type === 'slow_drip') await clock.sleep(action.delayMs, stop);
      if (struck && action.type === 'malformed' && isParsedJson(record)) {
        yield cutShort(record);
        return;
      }
      yield record.raw;
      // The Responses API's response.failed names the response it ends: the id response.created gave it.
      if (responseId === undefined && record.data?.includes('"response.created"'))
        responseId = /"id":"(resp_[^"]+)"/.exec(record.data)?.[1];
      if (counts(record)) passed += 1;
      // A content point is struck just after the block's first piece has passed.
      if (!struck && during !== undefined && during !== 'final' && contentKindOf(record.data) === during) {
        struck = true;
        if (yield* strike(stop, passed)) return;
      }
    }
  }

  return lazyStream({
    steps,
    signal: options.signal,
    onEnd: (reason) => {
      if (action.type === 'keepalive_only') options.onKeepalive?.('end');
      records.cancel(reason);
    },
  });
}

/** The record with its JSON cut in half (an unbalanced object never parses), then a blank line. */
function cutShort(record: SseRecord): string {
  const data = record.data ?? '{}';
  const cut = data.slice(0, Math.max(1, Math.floor(data.length / 2)));
  return `${record.event !== undefined ? `event: ${record.event}\n` : ''}data: ${cut}\n\n`;
}

function fallbackRecord(dialect: Dialect): SseRecord {
  if (dialect === 'responses') {
    return {
      raw: '',
      event: 'response.output_text.delta',
      data: '{"type":"response.output_text.delta","sequence_number":0,"item_id":"msg_fault","output_index":0,"content_index":0,"delta":"…"}',
      commentOnly: false,
      incomplete: false,
    };
  }
  return dialect === 'anthropic'
    ? {
        raw: '',
        event: 'content_block_delta',
        data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"…"}}',
        commentOnly: false,
        incomplete: false,
      }
    : {
        raw: '',
        data: '{"id":"chatcmpl-fault","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"…"},"finish_reason":null}]}',
        commentOnly: false,
        incomplete: false,
      };
}
