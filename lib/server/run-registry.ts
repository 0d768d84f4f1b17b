import 'server-only';
import { processEnv } from '@/lib/config/server-env';
import { randomUUID } from 'node:crypto';
import { storageErrorFor, type Cassette, type RunConfig, type RunEvent } from '@/lib/protocol';
import type { ForkStart } from '@/lib/runtime/plan-fork';
import type { ControlMessage, LaunchOptions, RunHandle } from '@/lib/runtime/types';
import type { RowTotals, RunStore } from '@/lib/store';
import { HttpError } from './http-error';
import type { RunTraffic } from './run-traffic';
import { createRedactor, runSecrets } from '@/lib/runtime/redact-secrets';

/** Receives a run's events in seq order, then onEnd once after the terminate event. */
export interface RunListener {
  onEvent(event: RunEvent): void;
  onEnd(): void;
}

export interface StartRunOptions {
  config: RunConfig;
  /** For this run only: handed to launch, never stored, emitted or logged. */
  apiKey?: string;
  /** A fork of a stored run (lib/runtime/plan-fork.ts): recorded with the run, handed to launch. */
  fork?: ForkStart;
  /** The recording a run with `config.replay` is served from, loaded by the route. */
  cassette?: Cassette;
}
export interface SubscribeOptions {
  runId: string;
  /** Replay events with seq greater than this (a Last-Event-ID); omit for the whole log. */
  afterSeq?: number;
  listener: RunListener;
}
export interface ControlOptions {
  runId: string;
  message: ControlMessage;
}

export interface RunRegistry {
  startRun(options: StartRunOptions): { id: string };
  /** Throws HttpError 404 for an unknown run. Returns the unsubscribe function. */
  subscribe(options: SubscribeOptions): () => void;
  /** Throws HttpError 404 (unknown) or 409 (already finished). */
  control(options: ControlOptions): void;
  isLive(runId: string): boolean;
  /**
   * Writes a live run's unwritten events now (they wait up to FLUSH_MS otherwise), for a reader
   * that goes to the store rather than subscribing: a fork of a running run. A no-op otherwise.
   */
  writePending(runId: string): void;
  /** Resolves once the run's terminate event is stored (at once when it is not live). */
  whenFinished(runId: string): Promise<void>;
  /**
   * Resolves once the store holds the run's first event (at once when it is not live): a reader
   * of the store (the comparison) that meets a run started a moment ago, still starting on its
   * run thread, waits for its run_start rather than finding an empty log.
   */
  whenLogged(runId: string): Promise<void>;
}

export interface RunRegistryOptions {
  store: RunStore;
  launch: (options: LaunchOptions) => RunHandle;
  /** A run nobody has watched for this long is aborted as abandoned. */
  unwatchedMs?: number;
  /** Where each run's model traffic is kept for "Save as cassette" (lib/server/run-traffic.ts); absent: not kept. */
  traffic?: RunTraffic;
}

/** Recent events kept in memory so a reconnect near the live edge needs no database read. */
const TAIL_SIZE = 512;
/** Past this many unwritten events a batch is written at once rather than at the next flush. */
const FLUSH_BATCH = 256;
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

interface LiveRun {
  id: string;
  /** Removes from what the registry logs every key the run has learned (the run's own redaction). */
  redactText: (text: string) => string;
  handle: RunHandle | undefined;
  /** Events the run logged that the store does not hold yet: nobody has seen them. */
  pending: RunEvent[];
  /** The run's totals after each pending event, as its run log handed them (the runs row is written from them). */
  pendingTotals: RowTotals[];
  /** The latest events the store holds (at most TAIL_SIZE): a reconnect near the edge reads them here. */
  tail: RunEvent[];
  subscribers: Set<RunListener>;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  finished: () => void;
  done: Promise<void>;
  /** Resolves when the first of the run's events is stored (or the run ends). */
  logged: () => void;
  firstStored: Promise<void>;
}

/**
 * Runs execute here, not inside an HTTP response: events go to the store and then to whoever
 * subscribes — an event is sent only once the store holds it, so a crash loses nothing a client
 * saw and a restart's terminate never takes a seq a client already has. A reconnect replays
 * from the store with no gap and no repeat: everything between reading the replay and joining
 * the fan-out is synchronous (the store is synchronous too), so no event can slip in between.
 */
export function createRunRegistry({
  store,
  launch,
  unwatchedMs = 60_000,
  traffic,
}: RunRegistryOptions): RunRegistry {
  const live = new Map<string, LiveRun>();

  /** Runs with events waiting to be written, and the one timer that writes them all. */
  const due = new Set<LiveRun>();
  let dueTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires (performance.now()), so a watched run's event can bring it forward. */
  let dueAt = Infinity;

  /** Writes every due batch within `delayMs`: the earlier of this and the timer already set. */
  const scheduleFlush = (delayMs: number): void => {
    const at = performance.now() + delayMs;
    if (dueTimer !== undefined && dueAt <= at) return;
    clearTimeout(dueTimer);
    dueAt = at;
    dueTimer = setTimeout(flushDue, delayMs);
  };

  /** Hands events the store now holds to the tail and to every subscriber. */
  const publish = (run: LiveRun, events: readonly RunEvent[]): void => {
    if (events.length === 0) return;
    run.logged();
    run.tail.push(...events);
    if (run.tail.length > TAIL_SIZE) run.tail.splice(0, run.tail.length - TAIL_SIZE);
    for (const event of events) {
      for (const listener of run.subscribers) {
        if (!safely(() => listener.onEvent(event))) run.subscribers.delete(listener);
      }
    }
  };

  /** Takes a run's waiting events and the totals after each, leaving it none. */
  const take = (run: LiveRun): { events: RunEvent[]; totals: RowTotals[] } => {
    const taken = { events: run.pending, totals: run.pendingTotals };
    run.pending = [];
    run.pendingTotals = [];
    return taken;
  };

  /** Writes a batch, then publishes what the store now holds. */
  const write = (run: LiveRun, events: RunEvent[], totals: RowTotals[]): void => {
    try {
      store.appendEvents({ runId: run.id, events, totals: totals.at(-1)! });
      publish(run, events);
    } catch {
      // The batch was rolled back whole: store it event by event, and put a storage_error in
      // the place of any event that still fails, so the log stays contiguous and later
      // batches still fit on.
      events.forEach((event, i) => {
        const stored = appendOne(run, event, totals[i]!);
        if (stored) publish(run, [stored]);
      });
    }
  };

  /** Writes one run's waiting events now (a reader needs the store, a full batch, the run's end). */
  const flush = (run: LiveRun): void => {
    due.delete(run);
    if (run.pending.length === 0) return;
    const { events, totals } = take(run);
    write(run, events, totals);
  };

  /** Writes every run's waiting events in one transaction; when it fails, each run's alone. */
  const flushDue = (): void => {
    clearTimeout(dueTimer);
    dueTimer = undefined;
    dueAt = Infinity;
    const batches = [...due].filter((run) => run.pending.length > 0).map((run) => ({ run, ...take(run) }));
    due.clear();
    if (batches.length === 0) return;
    try {
      store.appendEventBatches(
        batches.map(({ run, events, totals }) => ({ runId: run.id, events, totals: totals.at(-1)! })),
      );
    } catch {
      for (const { run, events, totals } of batches) write(run, events, totals);
      return;
    }
    for (const { run, events } of batches) publish(run, events);
  };

  /** Stores one event, or a storage_error in its place; returns what was stored (nothing: neither could be). */
  const appendOne = (run: LiveRun, event: RunEvent, totals: RowTotals): RunEvent | undefined => {
    try {
      store.appendEvents({ runId: run.id, events: [event], totals });
      return event;
    } catch (error) {
      const why = run.redactText((error as Error).message);
      console.error(`[loop-lab] run ${run.id}: could not store event ${event.seq} (${event.event}):`, why);
      if (event.event === 'terminate') return undefined;
      const replacement = storageErrorFor(
        event,
        `the store refused the ${event.event} event (${why}); it was not kept`,
      );
      try {
        store.appendEvents({ runId: run.id, events: [replacement], totals });
        return replacement;
      } catch (again) {
        console.error(
          `[loop-lab] run ${run.id}: could not store the storage_error for event ${event.seq}:`,
          (again as Error).message,
        );
        return undefined;
      }
    }
  };

  const armIdleTimer = (run: LiveRun): void => {
    clearTimeout(run.idleTimer);
    run.idleTimer = setTimeout(
      () => run.handle?.control({ action: 'abort', reason: 'abandoned' }),
      unwatchedMs,
    );
    run.idleTimer.unref?.();
  };

  const finish = (run: LiveRun): void => {
    flush(run);
    clearTimeout(run.idleTimer);
    live.delete(run.id);
    for (const listener of run.subscribers) safely(() => listener.onEnd());
    run.subscribers.clear();
    run.logged();
    run.finished();
  };

  /**
   * Persists an event as the run's log emitted it (numbered, storable and redacted there, with
   * the run's totals after it folded there: lib/runtime/run-log.ts, so nothing here or in the
   * store converts, redacts or folds it again); it is fanned out once its batch is written.
   */
  const accept = (run: LiveRun, event: RunEvent, totals: RowTotals): void => {
    if (!live.has(run.id)) return; // after terminate nothing more is logged
    run.pending.push(event);
    run.pendingTotals.push(totals);
    if (event.event === 'terminate') finish(run);
    else if (run.pending.length >= FLUSH_BATCH) flush(run);
    else {
      due.add(run);
      scheduleFlush(run.subscribers.size > 0 ? FLUSH_WATCHED_MS : FLUSH_MS);
    }
  };

  /** A run marked running in the store but not live here was cut off by a server restart. */
  const closeOrphan = (runId: string): void => {
    if (!live.has(runId)) store.closeInterruptedRuns({ runId });
  };

  return {
    startRun({ config, apiKey, fork, cassette }) {
      const id = randomUUID();
      const redactor = createRedactor({ secrets: runSecrets({ apiKey, env: processEnv() }) });
      // The stored config is redacted with the keys the run starts with (a key pasted into the system prompt).
      store.createRun({
        id,
        config: redactor.value(config),
        ...(fork ? { forkedFrom: { runId: fork.parentRunId, turn: fork.atTurn } } : {}),
      });
      let finished!: () => void;
      const done = new Promise<void>((resolve) => (finished = resolve));
      let logged!: () => void;
      const firstStored = new Promise<void>((resolve) => (logged = resolve));
      const run: LiveRun = {
        id,
        redactText: (text) => redactor.text(text),
        handle: undefined,
        pending: [],
        pendingTotals: [],
        tail: [],
        subscribers: new Set(),
        idleTimer: undefined,
        finished,
        done,
        logged,
        firstStored,
      };
      live.set(id, run);
      armIdleTimer(run);
      // The launch owns the log to its end: its run log writes the terminate, even for a run that
      // could not start. A launch that breaks that contract is dropped here, its log left open for
      // the store to close as interrupted; nothing here writes an event of its own.
      try {
        run.handle = launch({
          runId: id,
          config,
          ...(apiKey ? { apiKey } : {}),
          ...(fork ? { fork } : {}),
          ...(cassette ? { cassette } : {}),
          ...(traffic ? { onExchange: (exchange) => traffic.keep(id, exchange) } : {}),
          onEvent: (event, totals) => accept(run, event, totals),
        });
      } catch (error) {
        finish(run);
        throw error;
      }
      run.redactText = run.handle.redactText;
      void run.handle.done.then(() => {
        if (!live.has(id)) return;
        console.error(
          `[loop-lab] run ${id}: the launch ended without a terminate event; its log is left open`,
        );
        finish(run);
      });
      return { id };
    },

    subscribe({ runId, afterSeq = -1, listener }) {
      const run = live.get(runId);
      if (!run) {
        if (!store.getRun(runId)) throw new HttpError(404, `No run with id "${runId}"`);
        closeOrphan(runId);
        const missed = store.readEvents({ runId, afterSeq });
        // A reader that already had the end (or names a seq past it) is sent the terminate again:
        // every stream of a finished run ends with it.
        if (missed.at(-1)?.event !== 'terminate') {
          const last = store
            .readEvents({
              runId,
              afterSeq: Math.max(-1, (store.getRun(runId)?.summary.event_count ?? 0) - 2),
            })
            .at(-1);
          if (last?.event === 'terminate') missed.push(last);
        }
        for (const event of missed) listener.onEvent(event);
        listener.onEnd();
        return () => {};
      }
      const first = run.tail[0];
      if (!first || first.seq > afterSeq + 1) flush(run);
      // Every event of a live run reaches the store through publish, which keeps it in the tail
      // (trimmed from the front only): once its waiting events are written, a tail that is empty
      // or reaches back to the resume point is all the store holds after it, so a run POSTed a
      // moment ago is answered without reading the store.
      const head = run.tail[0];
      const replay =
        !head || head.seq <= afterSeq + 1
          ? run.tail.filter((event) => event.seq > afterSeq)
          : store.readEvents({ runId, afterSeq });
      for (const event of replay) listener.onEvent(event);
      run.subscribers.add(listener);
      clearTimeout(run.idleTimer);
      return () => {
        if (!run.subscribers.delete(listener)) return;
        if (run.subscribers.size === 0 && live.has(runId)) armIdleTimer(run);
      };
    },

    control({ runId, message }) {
      const run = live.get(runId);
      if (run?.handle) {
        run.handle.control(message);
        return;
      }
      const record = store.getRun(runId);
      if (!record) throw new HttpError(404, `No run with id "${runId}"`);
      closeOrphan(runId);
      const reason = store.getRun(runId)?.summary.reason ?? 'unknown';
      throw new HttpError(409, `Run "${runId}" has already finished (${reason}); start a new run instead`);
    },

    isLive(runId) {
      return live.has(runId);
    },

    writePending(runId) {
      const run = live.get(runId);
      if (run) flush(run);
    },

    whenFinished(runId) {
      return live.get(runId)?.done ?? Promise.resolve();
    },

    whenLogged(runId) {
      return live.get(runId)?.firstStored ?? Promise.resolve();
    },
  };
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
