import { trustedEventJson, type RunEvent } from '@/lib/protocol';
import type { RunStore } from '@/lib/store';
import { eventPages } from '@/lib/store/event-pages';

/** Receives a run's events in seq order, then onEnd once after the terminate event. */
export interface RunListener {
  onEvent(event: RunEvent): void;
  onEnd(): void;
}

/** Recent events kept in memory so a reconnect near the live edge needs no database read. */
export const TAIL_SIZE = 512;

/** What a live run hands its readers: the events the store holds last, and who listens. */
export interface FanOut {
  /** The latest events the store holds (at most TAIL_SIZE): a reconnect near the edge reads them here. */
  tail: RunEvent[];
  subscribers: Set<RunListener>;
  /** Resolves when the first of the run's events is stored (or the run ends). */
  logged: () => void;
}

/** Hands events the store now holds to the tail and to every subscriber. */
export function publish(run: FanOut, events: readonly RunEvent[]): void {
  if (events.length === 0) return;
  run.logged();
  run.tail.push(...events);
  if (run.tail.length > TAIL_SIZE) run.tail.splice(0, run.tail.length - TAIL_SIZE);
  for (const event of events) {
    for (const listener of run.subscribers) {
      if (!safely(() => listener.onEvent(event))) run.subscribers.delete(listener);
    }
  }
}

/**
 * What a new subscriber of a live run is sent first: the events after `afterSeq`. Every event of
 * a live run reaches the store through publish, which keeps it in the tail (trimmed from the
 * front only): once its waiting events are written (`flush`), a tail that is empty or reaches
 * back to the resume point is all the store holds after it, so a run POSTed a moment ago is
 * answered without reading the store; otherwise `readStored` reads it.
 */
export async function replayOf(
  run: FanOut,
  afterSeq: number,
  flush: () => Promise<void>,
  readStored: () => Promise<RunEvent[]>,
): Promise<RunEvent[]> {
  const first = run.tail[0];
  if (!first || first.seq > afterSeq + 1) await flush();
  const head = run.tail[0];
  return !head || head.seq <= afterSeq + 1 ? run.tail.filter((event) => event.seq > afterSeq) : readStored();
}

/**
 * Subscribes a listener to a live run with no gap and no repeat, though reading its replay
 * awaits the store: the listener joins the fan-out first, and what is published while the
 * replay is read is held, then sent after the replay from the first seq the replay did not
 * send (an event published meanwhile is in the store too, so it may be in both). The run's end
 * meanwhile is passed on after them. Resolves to what to remove from the run's subscribers.
 */
export async function joinLive(
  run: FanOut,
  afterSeq: number,
  listener: RunListener,
  replay: () => Promise<RunEvent[]>,
): Promise<RunListener> {
  const held: RunEvent[] = [];
  let replaying = true;
  let ended = false;
  const joined: RunListener = {
    onEvent(event) {
      if (replaying) held.push(event);
      else listener.onEvent(event);
    },
    onEnd() {
      if (replaying) ended = true;
      else listener.onEnd();
    },
  };
  run.subscribers.add(joined);
  try {
    let last = afterSeq;
    for (const event of await replay()) {
      listener.onEvent(event);
      last = event.seq;
    }
    for (const event of held)
      if (event.seq > last) {
        listener.onEvent(event);
        last = event.seq;
      }
  } catch (error) {
    run.subscribers.delete(joined);
    throw error;
  }
  replaying = false;
  if (ended) listener.onEnd();
  return joined;
}

/** Sends a finished run's events after `afterSeq` from the store, then ends the listener. */
export async function replayFinished(
  store: RunStore,
  runId: string,
  afterSeq: number,
  listener: RunListener,
): Promise<void> {
  // A page of rows at a time, each parsed as it is sent: a long log is never held whole.
  let sent: RunEvent | undefined;
  for await (const page of eventPages(store, { runId, afterSeq }))
    for (const row of page) listener.onEvent((sent = trustedEventJson(row.body)));
  // A reader that already had the end (or names a seq past it) is sent the terminate again:
  // every stream of a finished run ends with it.
  if (sent?.event !== 'terminate') {
    const count = (await store.getRun(runId))?.summary.event_count ?? 0;
    const last = (await store.readEvents({ runId, afterSeq: Math.max(-1, count - 2) })).at(-1);
    if (last?.event === 'terminate') listener.onEvent(last);
  }
  listener.onEnd();
}

/** Ends every subscriber of a run that has ended. */
export function endAll(run: FanOut): void {
  for (const listener of run.subscribers) safely(() => listener.onEnd());
  run.subscribers.clear();
}

/** Runs a subscriber callback; a subscriber that throws is dropped, never the run. */
function safely(fn: () => void): boolean {
  try {
    fn();
    return true;
  } catch (error) {
    console.error('[loop-lab] a run subscriber failed and was removed:', (error as Error).message);
    return false;
  }
}
