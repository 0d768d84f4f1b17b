import type { Clock } from '@/lib/clock';
import type { Dialect, FaultAction } from '@/lib/protocol';
import { contentKindOf } from './content-kind';
import { lazyStream, raceAbort, untilAborted } from './lazy-stream';
import { SseRecordReader, type SseRecord } from './sse-records';
import { socketTerminated } from './undici-errors';
import { inStreamErrorRecord } from './vendor-errors';

export type StreamFaultAction = Extract<
  FaultAction,
  { type: 'stall' | 'slow_drip' | 'drop' | 'sse_error' | 'malformed' }
>;

/** A record the SDKs count as an event: it has an event name or data (comments do not). */
const counts = (record: SseRecord): boolean => !record.commentOnly;

/** A record the SDK will JSON.parse (pings are dropped by the Anthropic SDK unparsed). */
const isParsedJson = (record: SseRecord): boolean =>
  !record.incomplete && record.event !== 'ping' && record.data !== undefined && record.data.startsWith('{');

/**
 * Wraps a real SSE body and corrupts it the way networks and vendors do: silence, slow
 * records, a dropped socket, the vendor's own error event, or a record cut short. Records
 * that pass are re-emitted byte for byte.
 */
export function faultedBody(options: {
  body: ReadableStream<Uint8Array>;
  action: StreamFaultAction;
  dialect: Dialect;
  framing: 'chat' | 'responses';
  model: string;
  clock: Clock;
  signal?: AbortSignal | null | undefined;
}): ReadableStream<Uint8Array> {
  const { action, clock } = options;
  const records = new SseRecordReader(options.body.getReader());

  async function* steps(stop: AbortSignal): AsyncGenerator<string, void, undefined> {
    let passed = 0;
    const dropAfter =
      action.type === 'drop' ? (action.afterEvents ?? (action.during === undefined ? 0 : undefined)) : undefined;
    for (;;) {
      if (action.type === 'stall' && passed >= action.afterEvents) await untilAborted(stop);
      if (dropAfter !== undefined && passed >= dropAfter) throw socketTerminated();
      if (action.type === 'sse_error' && passed >= action.afterEvents) {
        yield inStreamErrorRecord({
          dialect: options.dialect,
          framing: options.framing,
          model: options.model,
          errorType: action.errorType,
          sequenceNumber: passed,
        });
        return;
      }
      const record = await raceAbort(records.next(), stop);
      if (record === null) {
        // The stream ended before the fault's point: a malformed fault still leaves its mark.
        if (action.type === 'malformed') yield cutShort(fallbackRecord(options.dialect));
        return;
      }
      if (action.type === 'slow_drip') await clock.sleep(action.delayMs, stop);
      if (action.type === 'malformed' && passed >= action.afterEvents && isParsedJson(record)) {
        yield cutShort(record);
        return;
      }
      yield record.raw;
      if (counts(record)) passed += 1;
      if (action.type === 'drop' && action.during !== undefined && contentKindOf(record.data) === action.during) {
        throw socketTerminated();
      }
    }
  }

  return lazyStream({ steps, signal: options.signal, onEnd: (reason) => records.cancel(reason) });
}

/** The record with its JSON cut in half (an unbalanced object never parses), then a blank line. */
function cutShort(record: SseRecord): string {
  const data = record.data ?? '{}';
  const cut = data.slice(0, Math.max(1, Math.floor(data.length / 2)));
  return `${record.event !== undefined ? `event: ${record.event}\n` : ''}data: ${cut}\n\n`;
}

function fallbackRecord(dialect: Dialect): SseRecord {
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
