import { storageErrorFor, type RunEvent } from '@/lib/protocol';
import { RunLeaseLost, type RowTotals, type RunStore } from '@/lib/store';

/** Past this many unwritten events a batch is written at once rather than at the next flush. */
export const FLUSH_BATCH = 256;
/**
 * Unwritten events of a run nobody watches wait at most this long (wall time) before they are
 * written as one batch. A transaction per macrotask cost more CPU than the run itself
 * (measured: 156 commits and ~65 ms of CPU for a 400-event run of the long-project scenario).
 * Every live run's batch due at once is written in one transaction: with 100 live runs, one
 * commit each FLUSH_MS rather than 100.
 */
export const FLUSH_MS = 100;
/**
 * A watched run's events wait at most this long: no client sees an event before the store
 * holds it (a crash then loses nothing anyone saw), so the batch is written soon. Still one
 * transaction for every run due, so at most one commit each FLUSH_WATCHED_MS.
 */
export const FLUSH_WATCHED_MS = 10;

/** A live run's events not yet written. */
export interface PendingLog {
  id: string;
  /** The claim the run is held under here: every write names it, and the store refuses it once the run was taken over. */
  lease: number;
  /** Removes from what is logged every key the run has learned (the run's own redaction). */
  redactText: (text: string) => string;
  /** Events the run logged that the store does not hold yet: nobody has seen them. */
  pending: RunEvent[];
  /** The run's totals after each pending event, as its run log handed them (the runs row is written from them). */
  pendingTotals: RowTotals[];
  /**
   * The run's last write, stored and published (it never rejects): the next write waits for it, so
   * one run's batches reach the store and its readers in seq order, never interleaved.
   */
  writing: Promise<void>;
}

export interface RunBatches<R extends PendingLog> {
  /** Writes every due batch within `delayMs` (the earlier of this and the time already set), with `run`'s. */
  schedule(run: R, delayMs: number): void;
  /**
   * Writes one run's waiting events now (a reader needs the store, a full batch, the run's end),
   * after its earlier batches; resolves once the store holds them and they are published.
   */
  flush(run: R): Promise<void>;
}

/**
 * Writes live runs' events to the store in batches: every run's batch due at once in one
 * transaction, and `publish` handed each batch once the store holds it (the append awaited). A
 * run's writes are chained on its `writing`, so a batch is stored and published only after the
 * run's batch before it. When a transaction fails,
 * each run's batch is written alone, and then each event alone, a storage_error in the place of one
 * that still fails.
 */
export function createRunBatches<R extends PendingLog>({
  store,
  publish,
  lost,
}: {
  store: RunStore;
  publish: (run: R, events: readonly RunEvent[]) => void;
  /** The store refused a run's write because another process took it over: it must stop here. */
  lost: (run: R, error: RunLeaseLost) => void;
}): RunBatches<R> {
  /** Runs with events waiting to be written, and the one timer that writes them all. */
  const due = new Set<R>();
  let dueTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires (performance.now()), so a watched run's event can bring it forward. */
  let dueAt = Infinity;

  /** Writes a batch, then publishes what the store now holds. */
  const write = async (run: R, events: RunEvent[], totals: RowTotals[]): Promise<void> => {
    try {
      await store.appendEvents({ runId: run.id, events, totals: totals.at(-1)!, lease: run.lease });
    } catch (error) {
      // Another process holds the run now: nothing more of this one is written, not even an error.
      if (error instanceof RunLeaseLost) return lost(run, error);
      // The batch was rolled back whole: store it event by event, and put a storage_error in
      // the place of any event that still fails, so the log stays contiguous and later
      // batches still fit on.
      for (const [i, event] of events.entries()) {
        const stored = await appendOne(store, run, event, totals[i]!);
        if (stored instanceof RunLeaseLost) return lost(run, stored);
        if (stored) publish(run, [stored]);
      }
      return;
    }
    publish(run, events);
  };

  /** Chains a write after the runs' earlier ones; a write that still fails is logged, never left to reject. */
  const chain = (runs: readonly R[], job: () => Promise<void>): Promise<void> => {
    const after = runs.length === 1 ? runs[0]!.writing : Promise.all(runs.map((run) => run.writing));
    const written = after.then(job).catch((error: unknown) => {
      console.error(
        `[loop-lab] run ${runs.map((run) => run.id).join(', ')}: a batch of events was not written:`,
        runs[0]!.redactText(error instanceof Error ? error.message : String(error)),
      );
    });
    for (const run of runs) run.writing = written;
    return written;
  };

  const flush = (run: R): Promise<void> => {
    due.delete(run);
    if (run.pending.length === 0) return run.writing;
    const { events, totals } = take(run);
    return chain([run], () => write(run, events, totals));
  };

  /** Writes every run's waiting events in one transaction; when it fails, each run's alone. */
  const flushDue = (): void => {
    clearTimeout(dueTimer);
    dueTimer = undefined;
    dueAt = Infinity;
    const batches = [...due].filter((run) => run.pending.length > 0).map((run) => ({ run, ...take(run) }));
    due.clear();
    if (batches.length === 0) return;
    void chain(
      batches.map(({ run }) => run),
      async () => {
        try {
          await store.appendEventBatches(
            batches.map(({ run, events, totals }) => ({
              runId: run.id,
              events,
              totals: totals.at(-1)!,
              lease: run.lease,
            })),
          );
        } catch {
          for (const { run, events, totals } of batches) await write(run, events, totals);
          return;
        }
        for (const { run, events } of batches) publish(run, events);
      },
    );
  };

  const schedule = (run: R, delayMs: number): void => {
    due.add(run);
    const at = performance.now() + delayMs;
    if (dueTimer !== undefined && dueAt <= at) return;
    clearTimeout(dueTimer);
    dueAt = at;
    dueTimer = setTimeout(flushDue, delayMs);
  };

  return { schedule, flush };
}

/** Takes a run's waiting events and the totals after each, leaving it none. */
function take(run: PendingLog): { events: RunEvent[]; totals: RowTotals[] } {
  const taken = { events: run.pending, totals: run.pendingTotals };
  run.pending = [];
  run.pendingTotals = [];
  return taken;
}

/**
 * Stores one event, or a storage_error in its place; returns what was stored (nothing: neither
 * could be), or the refusal when another process holds the run now.
 */
async function appendOne(
  store: RunStore,
  run: PendingLog,
  event: RunEvent,
  totals: RowTotals,
): Promise<RunEvent | RunLeaseLost | undefined> {
  try {
    await store.appendEvents({ runId: run.id, events: [event], totals, lease: run.lease });
    return event;
  } catch (error) {
    if (error instanceof RunLeaseLost) return error;
    const why = run.redactText((error as Error).message);
    console.error(`[loop-lab] run ${run.id}: could not store event ${event.seq} (${event.event}):`, why);
    if (event.event === 'terminate') return undefined;
    const replacement = storageErrorFor(
      event,
      `the store refused the ${event.event} event (${why}); it was not kept`,
    );
    try {
      await store.appendEvents({ runId: run.id, events: [replacement], totals, lease: run.lease });
      return replacement;
    } catch (again) {
      console.error(
        `[loop-lab] run ${run.id}: could not store the storage_error for event ${event.seq}:`,
        (again as Error).message,
      );
      return undefined;
    }
  }
}
