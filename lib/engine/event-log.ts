import type { Clock } from '@/lib/clock';
import { stampEventInPlace, type EventBody, type RunEvent } from '@/lib/protocol';

export type Emit = (body: EventBody) => RunEvent;

/**
 * The run's log: stamps each event with run_id, a contiguous seq and the run clock's ts,
 * then hands it to the sink. Nothing about a run exists outside this log and its config.
 */
export class EventLog {
  private seq = 0;
  private terminated = false;

  constructor(
    private readonly runId: string,
    private readonly clock: Clock,
    private readonly sink: (event: RunEvent) => void,
  ) {}

  /** Appends one event. After terminate nothing more is written: the log is closed. */
  readonly emit: Emit = (body) => this.append(body, roundTs(this.clock.now()));

  private append(body: EventBody, ts: number): RunEvent {
    // Bodies are fresh literals at every call site: stamping them in place saves a copy per
    // streamed delta on the hottest path of a run.
    const event = stampEventInPlace(body, { run_id: this.runId, seq: this.seq, ts });
    if (this.terminated) return event;
    this.seq += 1;
    if (event.event === 'terminate') this.terminated = true;
    this.sink(event);
    return event;
  }

  /**
   * Appends an event at a given run time: a fork's opening events at 0 and its parent's
   * copied events at their own ts (run_id and seq are this log's), so the copied turns read
   * as they happened and the live run goes on from the last of them.
   */
  emitAt(body: EventBody, ts: number): RunEvent {
    return this.append(body, ts);
  }

  get closed(): boolean {
    return this.terminated;
  }
}

/** Timestamps to a tenth of a millisecond: enough for a waterfall, stable in JSON. */
function roundTs(ms: number): number {
  return Math.round(ms * 10) / 10;
}
