import { eventJson, type RunEvent } from '@/lib/protocol';
import type { RowTotals } from './run-store';
import { summarizeEvents, type SummaryDelta } from './summarize-events';

/**
 * A run's log made ready for the store where it was produced: each event's JSON (the exact
 * text the store keeps), its type and time, and the summary row's share. A sweep worker
 * encodes its run's log and sends this instead of the events: a list of strings crosses a
 * thread (or a queue) for a fraction of the cost of cloning the event objects, and the
 * thread that stores it neither serialises nor walks the events again.
 */
export interface EncodedLog {
  /** Each event's JSON, in seq order from `summary.firstSeq`, no gap. */
  bodies: string[];
  /** Each event's `event` field, for the events table's type column. */
  types: string[];
  /** Each event's run-clock ms. */
  ts: number[];
  summary: SummaryDelta;
}

/**
 * Encodes a log batch for `runId` (with the run's totals after its last event, from its run
 * log), checking what the store would check of the events: one
 * run's, in contiguous seq order. Throws with the store's own messages.
 */
export function encodeLog(runId: string, events: readonly RunEvent[], totals: RowTotals): EncodedLog {
  checkBatch(runId, events);
  return {
    bodies: events.map(eventJson),
    types: events.map((event) => event.event),
    ts: events.map((event) => event.ts),
    summary: summarizeEvents(events, totals),
  };
}

/** The events are `runId`'s and their seqs follow one another from the first. */
export function checkBatch(runId: string, events: readonly RunEvent[]): void {
  const firstSeq = events[0]?.seq ?? 0;
  events.forEach((event, index) => {
    if (event.seq !== firstSeq + index) {
      throw new Error(`run ${runId}: seq ${event.seq} breaks the contiguous batch at index ${index}`);
    }
    if (event.run_id !== runId)
      throw new Error(`event seq ${event.seq} belongs to run ${event.run_id}, not ${runId}`);
  });
}

/** An encoded log that arrived from elsewhere (a thread, a queue) is whole: its lists agree. */
export function checkEncodedLog(runId: string, log: EncodedLog): void {
  const n = log.summary.count;
  if (log.bodies.length !== n || log.types.length !== n || log.ts.length !== n) {
    throw new Error(
      `run ${runId}: the encoded log is not whole (${log.bodies.length} bodies, ${log.types.length} types, ${log.ts.length} times for ${n} events)`,
    );
  }
}
