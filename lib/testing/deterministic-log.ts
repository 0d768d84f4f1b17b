import type { RunEvent } from '@/lib/protocol';

/**
 * What a run records that the same config and seed must reproduce: every field of every event
 * but the run id (a name given from outside). Run time (`ts` and every duration) is on the
 * run's clock, so it belongs here; no event carries a wall-clock stamp.
 */
export function deterministicContent(event: RunEvent): string {
  const { run_id: _runId, ...content } = event;
  return JSON.stringify(content);
}

/** Where two logs of the same config and seed first part, said in a line; undefined when they never do. */
export function firstLogDifference(a: readonly RunEvent[], b: readonly RunEvent[]): string | undefined {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const left = a[i] === undefined ? '(no event)' : deterministicContent(a[i]!);
    const right = b[i] === undefined ? '(no event)' : deterministicContent(b[i]!);
    if (left !== right) return `event ${i} of ${a.length} vs ${b.length}: ${clip(left)} ≠ ${clip(right)}`;
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}
