import { eventJson, type RunEvent } from '@/lib/protocol';

/**
 * Resuming a run after a server restart, the durable-execution way: a run's checkpoint is its
 * stored log with its config and seed. The next server re-executes the run from them on the
 * virtual clock (everything a run does follows from config and seed there), checks every event
 * it regenerates against the one stored at the same seq, and once past the stored log lets the
 * run go on, appending after the last stored seq. Nothing a client saw is lost or changed: the
 * stored events stay as they are, and a re-execution that differs from them ends the run with
 * the reason instead of going on from a state the log does not describe.
 */

/** What the check says of one regenerated event. */
export type ReplayVerdict =
  /** Equal to the stored event at its seq: already in the log, not written again. */
  | { kind: 'replayed' }
  /** Past the stored log: the run going on, to be written. */
  | { kind: 'new' }
  /** Not what the stored log holds at its seq: the run cannot go on faithfully. */
  | { kind: 'diverged'; why: string };

/** Checks each regenerated event against the stored log (its bodies, in seq order from 0). */
export function createReplayCheck(
  stored: readonly { seq: number; body: string }[],
): (event: RunEvent) => ReplayVerdict {
  return (event) => {
    if (event.seq >= stored.length) return { kind: 'new' };
    const body = stored[event.seq]!.body;
    const again = eventJson(event);
    return again === body
      ? { kind: 'replayed' }
      : { kind: 'diverged', why: divergence(event.seq, body, again) };
  };
}

/**
 * Why a stored log cannot be re-executed at all, before trying: it holds what came from outside
 * the config while the run ran (a control message), which a re-execution would not do again.
 */
export function storedLogRefusal(stored: readonly { body: string }[]): string | undefined {
  for (const { body } of stored) {
    const event = JSON.parse(body) as { event?: string; action?: string; seq?: number };
    if (event.event === 'control')
      return (
        `not resumed: a control message (${event.action ?? 'unknown'}, seq ${event.seq ?? '?'}) changed the run while it ran, ` +
        `and a re-execution from its config and seed would not make it again`
      );
  }
  return undefined;
}

/** The sentence a divergence ends the run with: the seq, the event kinds, the fields that differ. */
function divergence(seq: number, storedBody: string, againBody: string): string {
  const stored = JSON.parse(storedBody) as Record<string, unknown>;
  const again = JSON.parse(againBody) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(stored), ...Object.keys(again)])].filter(
    (key) => JSON.stringify(stored[key]) !== JSON.stringify(again[key]),
  );
  const kinds =
    stored.event === again.event
      ? `the stored ${String(stored.event)} and the regenerated one differ in ${fields.join(', ') || 'key order'}`
      : `the stored log has ${String(stored.event)}, the re-execution wrote ${String(again.event)}`;
  return (
    `it was re-executed from its config and seed to resume it, and at seq ${seq} ${kinds}; ` +
    `it was not resumed, since it could not go on from the state its log describes`
  );
}
