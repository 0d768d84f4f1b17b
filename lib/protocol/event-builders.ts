import { RunEventSchema, type EventBody, type RunEvent } from './events';

/** What the log adds to a body: whose run, where in it, and when on the run clock. */
export interface EventStamp {
  run_id: string;
  seq: number;
  ts: number;
}

/** A body stamped into an event: a new object, typed by the body's own event. */
export function stampEvent(body: EventBody, stamp: EventStamp): RunEvent {
  return { ...body, ...stamp };
}

/**
 * Stamps a body in place and returns it as the event: for the engine's log, where every body
 * is a fresh literal and a streamed run would otherwise copy each delta once more.
 */
export function stampEventInPlace(body: EventBody, stamp: EventStamp): RunEvent {
  return Object.assign(body, stamp);
}

/** Bodies stamped as one run's log: seq from 0, ts from `ts(seq)` (default: the seq itself). */
export function eventLog(
  runId: string,
  bodies: readonly EventBody[],
  ts: (seq: number) => number = (seq) => seq,
): RunEvent[] {
  return bodies.map((body, seq) => stampEvent(body, { run_id: runId, seq, ts: ts(seq) }));
}

/** One event from its JSON, checked against the union (an import, a test reading a log). Throws on a line that is not an event. */
export function parseEventJson(line: string): RunEvent {
  return RunEventSchema.parse(JSON.parse(line));
}

/**
 * One event from JSON this program wrote itself (the store's own rows): not checked again,
 * since every row went through the union when it was appended.
 */
export function trustedEventJson(text: string): RunEvent {
  return JSON.parse(text) as RunEvent;
}
