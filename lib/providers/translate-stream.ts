import type { StreamPart } from './types';

/** Turns one SDK's stream events into stream parts; one per response, it keeps block state. */
export interface EventTranslator<Event> {
  /** The parts one vendor event stands for (often none). */
  push(event: Event): StreamPart[];
  /** What is still owed once the stream ends cleanly: the finish, if the vendor sent one. */
  end(): StreamPart[];
}

/**
 * Drives an SDK event stream through a translator into `onPart`. Both SDKs end a stream
 * quietly when its signal aborts mid-body (and throw APIUserAbortError before the headers);
 * either way an aborted stream here rejects with the signal's reason, so a caller can tell a
 * watchdog or a user abort from a stream the vendor cut. Every other error propagates unchanged.
 */
export async function translateStream<Event>(options: {
  open: () => Promise<AsyncIterable<Event>>;
  translator: EventTranslator<Event>;
  signal: AbortSignal;
  onPart: (part: StreamPart) => void;
}): Promise<void> {
  const { open, translator, signal, onPart } = options;
  try {
    const events = await open();
    // The response headers arrived with a success status: what fails from here failed in the stream.
    onPart({ type: 'connected' });
    for await (const event of events) {
      for (const part of translator.push(event)) onPart(part);
      if (signal.aborted) break;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  }
  if (signal.aborted) throw signal.reason;
  for (const part of translator.end()) onPart(part);
}
