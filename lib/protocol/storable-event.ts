import type { EventOf, RunEvent } from './events';
import { findTooDeep, MAX_EVENT_DEPTH } from './json-depth';

/**
 * The event that stands in for one that cannot be stored: same run, seq, ts and turn, so the
 * log stays contiguous and the run goes on; it says which event was lost and why.
 */
export function storageErrorFor(event: RunEvent, why: string): EventOf<'storage_error'> {
  const iteration = 'iteration' in event ? event.iteration : undefined;
  return {
    run_id: event.run_id,
    seq: event.seq,
    ts: event.ts,
    event: 'storage_error',
    ...(iteration !== undefined ? { iteration } : {}),
    replaces: event.event,
    message: why,
  };
}

/**
 * The event itself when every reader can encode it, else its storage_error. Content deltas
 * (the hot path, flat strings only) are not walked. A terminate is never replaced: its
 * fields are flat, and the log must end with it.
 */
export function toStorableEvent(event: RunEvent): RunEvent {
  if (event.event === 'content_delta' || event.event === 'terminate') return event;
  const at = findTooDeep(event, MAX_EVENT_DEPTH);
  if (at === undefined) return event;
  return storageErrorFor(
    event,
    `the ${event.event} event nests deeper than ${MAX_EVENT_DEPTH} levels (at ${at}), past what the store, the trace and the browser can encode; it was not kept`,
  );
}
