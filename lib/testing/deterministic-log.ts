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

/** Where two logs of the same config and seed first part, said in a line; undefined when they never do. */
export function firstLogDifference(a: readonly RunEvent[], b: readonly RunEvent[]): string | undefined {
  const left = deterministicContent(a).map((event) => JSON.stringify(event));
  const right = deterministicContent(b).map((event) => JSON.stringify(event));
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i])
      return `event ${i} of ${a.length} vs ${b.length}: ${clip(left[i] ?? '(no event)')} ≠ ${clip(right[i] ?? '(no event)')}`;
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}
