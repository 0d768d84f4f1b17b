import type { Clock } from '@/lib/clock';
import type { EventBody, EventOf } from '@/lib/protocol';

/** At most one keepalive event per request in this much run time; the count is always the total. */
const COALESCE_MS = 1000;

/**
 * Keepalives made visible: the SDK drops them (so they never reset the watchdog, rightly),
 * and the fault wrapper reports each one here. A `keepalive` event carries the request's
 * total so far, at most one a second of run time, and a last one when the stream ends with
 * keepalives not yet logged — so a 10 ms keepalive fault cannot flood the log.
 */
export function createKeepaliveLog(options: {
  clock: Clock;
  emit: (event: EventBody<EventOf<'keepalive'>>) => void;
  iteration: () => number;
}): (info: { requestNo: number; style: 'ping' | 'comment'; phase: 'beat' | 'end' }) => void {
  const open = new Map<number, { count: number; logged: number; lastTs: number }>();
  return ({ requestNo, style, phase }) => {
    const now = options.clock.now();
    let state = open.get(requestNo);
    if (phase === 'end') {
      open.delete(requestNo);
      if (!state || state.count === state.logged) return;
    } else {
      if (!state) {
        state = { count: 0, logged: 0, lastTs: -Infinity };
        open.set(requestNo, state);
      }
      state.count += 1;
      if (now - state.lastTs < COALESCE_MS) return;
    }
    state.logged = state.count;
    state.lastTs = now;
    options.emit({
      event: 'keepalive',
      iteration: options.iteration(),
      request_no: requestNo,
      count: state.count,
      style,
    });
  };
}
