import type { RunEvent } from '@/lib/protocol';

/** One vendor and model a run was on. */
export interface RouteStop {
  vendor: string;
  model: string;
}

/**
 * The log's events that change the vendor or model, reduced to what the runs list needs: a
 * swap (any cause: by hand, planned, cross-vendor fallback, a fork moving on), a same-vendor
 * fallback model, and a fork's start (its trajectory began on the parent's vendor).
 */
export type RouteEvent =
  | { kind: 'swap'; from: RouteStop; to: RouteStop }
  | { kind: 'fallback'; model: string }
  | { kind: 'fork'; at: RouteStop };

/**
 * What the store keeps of a run's route (the summary row's `route`): the vendors and models
 * in order once the run changed one, empty while it has not; for a fork, the vendor its copied
 * turns were on until a change is seen.
 */
export interface RouteState {
  stops: RouteStop[];
  fork?: RouteStop;
}

export const NO_ROUTE: RouteState = { stops: [] };

export function routeEventOf(event: RunEvent): RouteEvent | undefined {
  switch (event.event) {
    case 'swap':
      return {
        kind: 'swap',
        from: { vendor: event.from_vendor, model: event.from_model },
        to: { vendor: event.to_vendor, model: event.to_model },
      };
    case 'fallback':
      return { kind: 'fallback', model: event.to_model };
    case 'forked_from':
      return { kind: 'fork', at: { vendor: event.from_vendor, model: event.from_model } };
    default:
      return undefined;
  }
}

const sameStop = (a: RouteStop | undefined, b: RouteStop): boolean =>
  a?.vendor === b.vendor && a.model === b.model;

/**
 * Adds route events to a run's route. `start` is the vendor and model the run started on
 * (the summary row's), used when a fallback is the first change. A swap's `from` opens the
 * route when nothing came before it, so a fork's copied swaps begin where the parent began.
 */
export function foldRoute(state: RouteState, events: readonly RouteEvent[], start: RouteStop): RouteState {
  let stops = [...state.stops];
  let fork = state.fork;
  const push = (stop: RouteStop) => {
    if (!sameStop(stops.at(-1), stop)) stops.push(stop);
  };
  for (const event of events) {
    switch (event.kind) {
      case 'fork':
        // The copied turns ran where the parent ran; what came before the fork's own start does not count.
        stops = [];
        fork = event.at;
        break;
      case 'swap':
        if (stops.length === 0) push(event.from);
        push(event.to);
        break;
      case 'fallback': {
        if (stops.length === 0) push(fork ?? start);
        push({ vendor: stops.at(-1)!.vendor, model: event.model });
        break;
      }
    }
  }
  return fork ? { stops, fork } : { stops };
}

/** Every vendor and model a run used, in order: its route, or the one it started on. */
export function routeStops(state: RouteState, start: RouteStop): RouteStop[] {
  if (state.stops.length > 0) return state.stops;
  return [state.fork ?? start];
}

/** Reads a stored route; anything unreadable reads as no change. */
export function parseRoute(stored: string): RouteState {
  try {
    const parsed = JSON.parse(stored) as Partial<RouteState>;
    return {
      stops: Array.isArray(parsed.stops) ? parsed.stops : [],
      ...(parsed.fork ? { fork: parsed.fork } : {}),
    };
  } catch {
    return NO_ROUTE;
  }
}
