import type { RunEvent } from '@/lib/protocol';

/**
 * A run's log reduced to what the same config and seed must reproduce exactly, event for event,
 * however busy the machine was and whichever discrete-event clock played it: every field of
 * every event, its seq and its run-clock `ts` included, except the run's id and which clock
 * (and time scale) the run was on — a paced run is its virtual-clock run at a pace. No event
 * carries a wall-clock stamp (`ts` is run time), so nothing else is left out.
 */
export function deterministicContent(events: readonly RunEvent[]): unknown[] {
  return events.map((event) => {
    const { run_id: _runId, ...rest } = event;
    if (rest.event !== 'run_start') return rest;
    const { clock: _clock, time_scale: _timeScale, config, ...start } = rest;
    const { clock: _configClock, timeScale: _configScale, ...sameConfig } = config;
    return { ...start, config: sameConfig };
  });
}
