import 'server-only';
import { DEFAULT_UNWATCHED_MS, processEnv } from '@/lib/config/server-env';
import { randomUUID } from 'node:crypto';
import type { Cassette, RunConfig, RunEvent, WireExchange } from '@/lib/protocol';
import type { ForkStart } from '@/lib/runtime/plan-fork';
import type { ControlMessage, LaunchOptions, RunHandle } from '@/lib/runtime/types';
import type { RowTotals, RunStore, WireStore } from '@/lib/store';
import { HttpError } from './http-error';
import type { RunTraffic } from './run-traffic';
import { createRedactor, runSecrets } from '@/lib/runtime/redact-secrets';
import { createRunBatches, FLUSH_BATCH, FLUSH_MS, FLUSH_WATCHED_MS, type PendingLog } from './run-batches';
import {
  endAll,
  publish,
  replayFinished,
  replayOf,
  TAIL_SIZE,
  type FanOut,
  type RunListener,
} from './run-fan-out';
import { createReplayCheck, storedLogRefusal } from './resume-runs';

export type { RunListener } from './run-fan-out';
export { FLUSH_MS, FLUSH_WATCHED_MS } from './run-batches';

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
  /**
   * Takes up every run a previous server process left in flight (the store's claim): each that
   * can be resumed faithfully is re-executed from its config and seed, checked against its
   * stored log and goes on live here (lib/server/resume-runs.ts): `resumed`, though a
   * re-execution that leaves the stored log still ends it with the reason; a log that holds what
   * its config cannot give again (a control message) is closed at once with the reason:
   * `closed`. Runs whose config rules resumption out were closed when the store opened. Called
   * once, when the server starts.
   */
  resumeInterrupted(): { resumed: string[]; closed: string[] };
}

export interface RunRegistryOptions {
  store: RunStore;
  launch: (options: LaunchOptions) => RunHandle;
  /** A run nobody has watched for this long is aborted as abandoned. */
  unwatchedMs?: number;
  /** Where each run's model traffic is kept for "Save as cassette" (lib/server/run-traffic.ts); absent: not kept. */
  traffic?: RunTraffic;
  /** Where each run's wire is kept for its attempt cards (lib/store/wire-store.ts); absent: not kept. */
  wire?: WireStore;
}

/** A live run: its log's unwritten events (run-batches.ts), its readers (run-fan-out.ts), its life here. */
interface LiveRun extends PendingLog, FanOut {
  handle: RunHandle | undefined;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  finished: () => void;
  done: Promise<void>;
  firstStored: Promise<void>;
}

/** A run just started: nothing logged, nobody subscribed, its two promises unresolved. */
function newLiveRun(id: string, redactText: (text: string) => string): LiveRun {
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  let logged!: () => void;
  const firstStored = new Promise<void>((resolve) => (logged = resolve));
  return {
    id,
    redactText,
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
}

/** Keeps one request's wire; a store that fails is logged, and the run goes on without it. */
function keepWire(wire: WireStore, runId: string, exchange: WireExchange): void {
  try {
    wire.keepWire({ runId, exchange });
  } catch (error) {
    console.error(
      `[loop-lab] run ${runId}: request ${exchange.n}'s wire was not kept: ${(error as Error).message}`,
    );
  }
}

/** Aborts the run as abandoned once nobody has watched it for `unwatchedMs`. */
function armIdleTimer(run: LiveRun, unwatchedMs: number): void {
  clearTimeout(run.idleTimer);
  run.idleTimer = setTimeout(
    () => run.handle?.control({ action: 'abort', reason: 'abandoned' }),
    unwatchedMs,
  );
  run.idleTimer.unref?.();
}

/**
 * Hands a live run to the launch. The launch owns the log to its end: its run log writes the
 * terminate, even for a run that could not start. A launch that breaks that contract (it throws,
 * or ends with the log open) is dropped here, its log left open for the store to close as
 * interrupted; nothing here writes an event of its own.
 */
function launchLive(input: {
  run: LiveRun;
  launch: (options: LaunchOptions) => RunHandle;
  options: LaunchOptions;
  /** Is the run still live here (not yet finished)? */
  isLive: () => boolean;
  /** Writes what is pending and lets the run go. */
  finish: () => void;
}): void {
  const { run, finish } = input;
  try {
    run.handle = input.launch(input.options);
  } catch (error) {
    finish();
    throw error;
  }
  run.redactText = run.handle.redactText;
  void run.handle.done.then(() => {
    if (!input.isLive()) return;
    console.error(
      `[loop-lab] run ${run.id}: the launch ended without a terminate event; its log is left open`,
    );
    finish();
  });
}

/**
 * A run that is not live here, as the store holds it: a 404 when it holds none. A run the store
 * still marks running but not live here was cut off by a server restart: it is closed as
 * interrupted now, before it is read.
 */
function settleStoredRun(store: RunStore, runId: string, isLive: boolean): void {
  if (!store.getRun(runId)) throw new HttpError(404, `No run with id "${runId}"`);
  if (!isLive) store.closeInterruptedRuns({ runId });
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
  unwatchedMs = DEFAULT_UNWATCHED_MS,
  traffic,
  wire,
}: RunRegistryOptions): RunRegistry {
  const live = new Map<string, LiveRun>();
  const batches = createRunBatches<LiveRun>({ store, publish });

  const finish = (run: LiveRun): void => {
    batches.flush(run);
    clearTimeout(run.idleTimer);
    live.delete(run.id);
    endAll(run);
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
    else if (run.pending.length >= FLUSH_BATCH) batches.flush(run);
    // A turn's end is its checkpoint: the log through it is written at once (with every run's batch
    // due), so a restart resumes from there at the latest (lib/server/resume-runs.ts).
    else if (event.event === 'iteration_start') batches.schedule(run, 0);
    else batches.schedule(run, run.subscribers.size > 0 ? FLUSH_WATCHED_MS : FLUSH_MS);
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
      const run = newLiveRun(id, (text) => redactor.text(text));
      live.set(id, run);
      armIdleTimer(run, unwatchedMs);
      launchLive({
        run,
        launch,
        options: {
          runId: id,
          config,
          ...(apiKey ? { apiKey } : {}),
          ...(fork ? { fork } : {}),
          ...(cassette ? { cassette } : {}),
          ...(traffic ? { onExchange: (exchange) => traffic.keep(id, exchange) } : {}),
          ...(wire ? { onWire: (exchange) => keepWire(wire, id, exchange) } : {}),
          onEvent: (event, totals) => accept(run, event, totals),
        },
        isLive: () => live.has(id),
        finish: () => finish(run),
      });
      return { id };
    },

    subscribe({ runId, afterSeq = -1, listener }) {
      const run = live.get(runId);
      if (!run) {
        settleStoredRun(store, runId, live.has(runId));
        replayFinished(store, runId, afterSeq, listener);
        return () => {};
      }
      const replay = replayOf(
        run,
        afterSeq,
        () => batches.flush(run),
        () => store.readEvents({ runId, afterSeq }),
      );
      for (const event of replay) listener.onEvent(event);
      run.subscribers.add(listener);
      clearTimeout(run.idleTimer);
      return () => {
        if (!run.subscribers.delete(listener)) return;
        if (run.subscribers.size === 0 && live.has(runId)) armIdleTimer(run, unwatchedMs);
      };
    },

    control({ runId, message }) {
      const run = live.get(runId);
      if (run?.handle) {
        run.handle.control(message);
        return;
      }
      settleStoredRun(store, runId, live.has(runId));
      const reason = store.getRun(runId)?.summary.reason ?? 'unknown';
      throw new HttpError(409, `Run "${runId}" has already finished (${reason}); start a new run instead`);
    },

    isLive(runId) {
      return live.has(runId);
    },

    writePending(runId) {
      const run = live.get(runId);
      if (run) batches.flush(run);
    },

    whenFinished(runId) {
      return live.get(runId)?.done ?? Promise.resolve();
    },

    whenLogged(runId) {
      return live.get(runId)?.firstStored ?? Promise.resolve();
    },

    resumeInterrupted() {
      const resumed: string[] = [];
      const closed: string[] = [];
      for (const { id, config } of store.claimInterruptedRuns()) {
        const count = store.getRun(id)?.summary.event_count ?? 0;
        const stored = store.readEventBodies({ runId: id, limit: count });
        const refusal = storedLogRefusal(stored);
        if (refusal !== undefined) {
          store.closeInterruptedRuns({ runId: id, why: refusal });
          closed.push(id);
          continue;
        }
        const redactor = createRedactor({ secrets: runSecrets({ env: processEnv() }) });
        const run = newLiveRun(id, (text) => redactor.text(text));
        // The store holds the log so far: a reconnect reads it from the tail or the store, as for any run.
        run.tail = store.readEvents({ runId: id, afterSeq: Math.max(-1, count - TAIL_SIZE - 1) });
        run.logged();
        live.set(id, run);
        armIdleTimer(run, unwatchedMs);
        const check = createReplayCheck(stored);
        let diverged = false;
        launchLive({
          run,
          launch,
          options: {
            runId: id,
            config,
            restart: { replayed: count },
            ...(traffic ? { onExchange: (exchange) => traffic.keep(id, exchange) } : {}),
            ...(wire ? { onWire: (exchange) => keepWire(wire, id, exchange) } : {}),
            onEvent: (event, totals) => {
              if (diverged || !live.has(id)) return;
              const verdict = check(event);
              if (verdict.kind === 'replayed') return;
              if (verdict.kind === 'new') return accept(run, event, totals);
              // The re-execution left the stored log: closed after it with the reason, the rest ignored.
              diverged = true;
              store.closeInterruptedRuns({ runId: id, why: verdict.why });
              publish(run, store.readEvents({ runId: id, afterSeq: count - 1 }));
              finish(run);
              queueMicrotask(() => run.handle?.control({ action: 'abort', reason: 'aborted' }));
            },
          },
          isLive: () => live.has(id),
          finish: () => finish(run),
        });
        resumed.push(id);
      }
      return { resumed, closed };
    },
  };
}
