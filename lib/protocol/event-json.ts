import type { RunEvent } from './events';

const encoded = new WeakMap<RunEvent, string>();

/**
 * An event's JSON, encoded once: a live event is written to the store and to every SSE
 * subscriber, and each used to serialise it again. Events are immutable once appended
 * (a replacement, such as a storage_error, is a new object), so the text cannot go stale.
 */
export function eventJson(event: RunEvent): string {
  let json = encoded.get(event);
  if (json === undefined) {
    json = JSON.stringify(event);
    encoded.set(event, json);
  }
  return json;
}
