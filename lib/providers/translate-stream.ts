import type { EventTranslator } from './anthropic-events';
import type { StreamPart } from './types';

/**
 * Drives an SDK event stream through a translator. Both SDKs end a stream quietly when its
 * signal aborts mid-body (and throw APIUserAbortError before the headers); either way an
 * aborted stream here throws the signal's reason, so a caller can tell a watchdog or a
 * user abort from a stream the vendor cut. Every other error propagates unchanged.
 */
export async function* translateStream<Event>(options: {
  open: () => Promise<AsyncIterable<Event>>;
  translator: EventTranslator<Event>;
  signal: AbortSignal;
}): AsyncGenerator<StreamPart, void, undefined> {
  const { open, translator, signal } = options;
  try {
    const events = await open();
    for await (const event of events) {
      for (const part of translator.push(event)) yield part;
      if (signal.aborted) break;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  }
  if (signal.aborted) throw signal.reason;
  yield* translator.end();
}
