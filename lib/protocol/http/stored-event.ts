import type { RunEvent } from '../events';

/**
 * An event the server read back from its store, as far as a reader checks it: its envelope
 * (run, seq, kind). Every stored row went through the event union when it was appended, so
 * checking the union again for each of a long run's ~18,000 events would cost more than
 * everything else its open does. Free of zod: the run page's log reader uses it after its first paint.
 */
export function isStoredEvent(value: unknown): value is RunEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return typeof event.run_id === 'string' && Number.isInteger(event.seq) && typeof event.event === 'string';
}
