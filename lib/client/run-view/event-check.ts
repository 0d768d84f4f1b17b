import type { CheckedEvent } from '@/lib/protocol/events';

/**
 * The event union's check (zod and every event's schema), loaded after the page's first paint:
 * with a run's first events, or ahead when the page is idle. Until it is loaded nothing is
 * folded (the sliced fold waits for it); once loaded it is the same check the server's
 * importers run.
 */
let check: ((value: unknown) => CheckedEvent) | undefined;
let loading: Promise<void> | undefined;

export function loadEventCheck(): Promise<void> {
  loading ??= import('@/lib/protocol/events').then((events) => {
    check = events.safeParseEvent;
  });
  return loading;
}

export function eventCheckLoaded(): boolean {
  return check !== undefined;
}

/** A value checked against the event union; throws when called before loadEventCheck settled (a bug in the caller). */
export function checkEvent(value: unknown): CheckedEvent {
  if (!check) throw new Error('the event check is not loaded yet: fold after loadEventCheck()');
  return check(value);
}
