import type { Clock } from '@/lib/clock';
import type { Dialect } from '@/lib/protocol';
import { lazyStream } from './lazy-stream';

/** Anthropic's ping, serialised with the space recorded traffic shows (other events are compact). */
const PING = 'event: ping\ndata: {"type": "ping"}\n\n';
const COMMENT = ': keepalive\n\n';

/** One keepalive in the dialect's own form: OpenAI streams have no ping event, so they get comments. */
export function keepaliveBeat(options: { dialect: Dialect; style: 'ping' | 'comment' }): string {
  return options.dialect === 'anthropic' && options.style === 'ping' ? PING : COMMENT;
}

/**
 * A stream that is alive and says nothing: a keepalive every intervalMs, never content,
 * until the request is aborted. OpenAI streams have no ping event, so they get comments.
 */
export function keepaliveBody(options: {
  dialect: Dialect;
  style: 'ping' | 'comment';
  intervalMs: number;
  clock: Clock;
  signal?: AbortSignal | null | undefined;
  /** Each keepalive as it goes out, and once when the stream ends (the SDK never sees them). */
  onKeepalive?: (phase: 'beat' | 'end') => void;
}): ReadableStream<Uint8Array> {
  const { clock, intervalMs } = options;
  const beat = keepaliveBeat(options);
  async function* steps(stop: AbortSignal): AsyncGenerator<string, void, undefined> {
    for (;;) {
      await clock.sleep(intervalMs, stop);
      options.onKeepalive?.('beat');
      yield beat;
    }
  }
  return lazyStream({ steps, signal: options.signal, onEnd: () => options.onKeepalive?.('end') });
}
