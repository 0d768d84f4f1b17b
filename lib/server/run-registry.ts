import 'server-only';
import { DEFAULT_UNWATCHED_MS, processEnv } from '@/lib/config/server-env';
import { randomUUID } from 'node:crypto';
import type { RunConfig, RunEvent } from '@/lib/protocol';
import type { LaunchOptions } from '@/lib/runtime/types';
import { CREATED_LEASE, type RowTotals, type RunStore } from '@/lib/store';
import { HttpError } from './http-error';
import { createRedactor, runSecrets } from '@/lib/runtime/redact-secrets';
import { createRunBatches, FLUSH_BATCH, FLUSH_MS, FLUSH_WATCHED_MS } from './run-batches';
import { endAll, joinLive, publish, replayFinished, replayOf, TAIL_SIZE } from './run-fan-out';
import { createReplayCheck, storedLogRefusal } from './resume-runs';
import { createRunHolds } from './run-holds';
import { armIdleTimer, keepWire, launchLive, newLiveRun, type LiveRun } from './live-run';
import type { LocalRunRegistry, RunRegistryOptions, StartRunOptions } from './run-registry-types';

export type { RunListener } from './run-fan-out';
export { FLUSH_MS, FLUSH_WATCHED_MS } from './run-batches';
export type {
  ControlOptions,
  LocalRunRegistry,
  RunRegistry,
  RunRegistryOptions,
  StartRunOptions,
  SubscribeOptions,
} from './run-registry-types';

/**
 * A run that is not live here, as the store holds it: a 404 when it holds none. A run the store
 * still marks running but not live here was cut off by a server restart: it is closed as
 * interrupted now, before it is read.
 */
async function settleStoredRun(store: RunStore, runId: string): Promise<void> {
  if (!(await store.getRun(runId))) throw new HttpError(404, `No run with id "${runId}"`);
  await store.closeInterruptedRuns({ runId });
}

/**
 * Runs execute here, not inside an HTTP response: events go to the store and then to whoever
 * subscribes — an event is sent only once the store holds it (the append awaited), so a crash
 * loses nothing a client saw and a restart's terminate never takes a seq a client already has.
 * A reconnect replays from the store with no gap and no repeat: the subscriber joins the fan-out
 * before the replay is read, and what is published meanwhile is sent after the replay, from the
 * first seq it did not send (run-fan-out.ts joinLive).
 */
export function createRunRegistry({
  store,
  launch,
  unwatchedMs = DEFAULT_UNWATCHED_MS,
  traffic,
  wire,
  onVendorRequest,
  prepare,
}: RunRegistryOptions): LocalRunRegistry {
  const live = new Map<string, LiveRun>();
  const { lose, closeHeld, gated } = createRunHolds(store, live);
  const batches = createRunBatches<LiveRun>({
    store,
    publish,
    lost: (run, error) => lose(run, error.message),
  });
  /** The startup's resumption: the other methods wait for it, so none meets a run it is taking up. */
  let resuming: Promise<unknown> = Promise.resolve();

  /**
   * Takes no more events, writes what is pending (after `closing`, a write of its own, when
   * given), then lets the run go: it stays live here until the store holds its end, so no reader
   * meanwhile finds it running in the store yet not live and closes it as interrupted.
   */
  const finish = (run: LiveRun, closing?: () => Promise<void>): void => {
    if (run.ending) return;
    run.ending = true;
    clearTimeout(run.idleTimer);
    if (closing)
      run.writing = run.writing.then(closing).catch((error: unknown) => {
        console.error(`[loop-lab] run ${run.id}: could not close its log: ${run.redactText(String(error))}`);
      });
    batches
      .flush(run)
      .then(() => {
        if (run.lost) return;
        live.delete(run.id);
        endAll(run);
        run.logged();
        run.finished('ended');
      })
      .catch((error: unknown) => {
        console.error(`[loop-lab] run ${run.id}: could not let it go: ${run.redactText(String(error))}`);
      });
  };

  /**
   * Persists an event as the run's log emitted it (numbered, storable and redacted there, with
   * the run's totals after it folded there: lib/runtime/run-log.ts, so nothing here or in the
   * store converts, redacts or folds it again); it is fanned out once its batch is written.
   */
  const accept = (run: LiveRun, event: RunEvent, totals: RowTotals): void => {
    if (run.ending) return; // after terminate nothing more is logged
    run.pending.push(event);
    run.pendingTotals.push(totals);
    // The run's traffic is stored before its terminate: a finished run's cassette is whole.
    if (event.event === 'terminate') finish(run, traffic ? () => traffic.settled(run.id) : undefined);
    else if (run.pending.length >= FLUSH_BATCH) void batches.flush(run);
    // A turn's end is its checkpoint: the log through it is written at once (with every run's batch
    // due), so a restart resumes from there at the latest (lib/server/resume-runs.ts).
    else if (event.event === 'iteration_start') batches.schedule(run, 0);
    else batches.schedule(run, run.subscribers.size > 0 ? FLUSH_WATCHED_MS : FLUSH_MS);
  };

  /** Keeps what a run's requests sent and received, unless it was lost to another process. */
  const taps = (run: LiveRun): Pick<LaunchOptions, 'onExchange' | 'onWire' | 'onVendorRequest'> => ({
    ...(onVendorRequest ? { onVendorRequest: () => onVendorRequest(run.id) } : {}),
    ...(traffic ? { onExchange: (exchange) => !run.lost && traffic.keep(run.id, exchange) } : {}),
    ...(wire ? { onWire: (exchange) => !run.lost && keepWire(wire, run.id, exchange) } : {}),
  });

  /** Launches a run the store holds (with no events yet) and keeps it live here. */
  const startLive = (
    id: string,
    redactor: ReturnType<typeof createRedactor>,
    { config, apiKey, fork, cassette }: StartRunOptions,
    held: { lease: number; taken: boolean } = { lease: CREATED_LEASE, taken: false },
  ): void => {
    const run = newLiveRun(id, (text) => redactor.text(text), held.lease);
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
        ...taps(run),
        ...gated(run, held.taken),
        onEvent: (event, totals) => accept(run, event, totals),
      },
      finish: () => finish(run),
    });
  };

  return {
    async startRun({ config, apiKey, fork, cassette }) {
      const id = randomUUID();
      await prepare?.(config);
      const redactor = createRedactor({ secrets: runSecrets({ apiKey, env: processEnv() }) });
      // The stored config is redacted with the keys the run starts with (a key pasted into the system prompt).
      await store.createRun({
        id,
        config: redactor.value(config),
        ...(fork ? { forkedFrom: { runId: fork.parentRunId, turn: fork.atTurn } } : {}),
      });
      startLive(id, redactor, {
        config,
        ...(apiKey ? { apiKey } : {}),
        ...(fork ? { fork } : {}),
        ...(cassette ? { cassette } : {}),
      });
      return { id };
    },

    async subscribe({ runId, afterSeq = -1, listener }) {
      await resuming;
      const run = live.get(runId);
      if (!run) {
        await settleStoredRun(store, runId);
        await replayFinished(store, runId, afterSeq, listener);
        return () => {};
      }
      clearTimeout(run.idleTimer);
      const joined = await joinLive(run, afterSeq, listener, () =>
        replayOf(
          run,
          afterSeq,
          () => batches.flush(run),
          () => store.readEvents({ runId, afterSeq }),
        ),
      ).catch((error: unknown) => {
        if (run.subscribers.size === 0 && !run.ending) armIdleTimer(run, unwatchedMs);
        throw error;
      });
      return () => {
        if (!run.subscribers.delete(joined)) return;
        if (run.subscribers.size === 0 && !run.ending) armIdleTimer(run, unwatchedMs);
      };
    },

    async control({ runId, message }) {
      await resuming;
      const run = live.get(runId);
      if (run?.handle && !run.ending) {
        run.handle.control(message);
        return;
      }
      // A run whose end is being written is answered once it is stored, as a finished one.
      if (run) await run.done;
      await settleStoredRun(store, runId);
      const reason = (await store.getRun(runId))?.summary.reason ?? 'unknown';
      throw new HttpError(409, `Run "${runId}" has already finished (${reason}); start a new run instead`);
    },

    async isLive(runId) {
      await resuming;
      return live.has(runId);
    },

    async writePending(runId) {
      await resuming;
      const run = live.get(runId);
      if (run) await batches.flush(run);
    },

    async whenFinished(runId) {
      await resuming;
      await live.get(runId)?.done;
    },

    async whenReleased(runId) {
      await resuming;
      return (await live.get(runId)?.done) ?? 'ended';
    },

    async whenLogged(runId) {
      await resuming;
      await live.get(runId)?.firstStored;
    },

    async executeTakenOver(taken, { fork, cassette }) {
      await resuming;
      const { id, config, lease } = taken;
      if (taken.eventCount > 0 && taken.refusal === undefined && config)
        return resumeStored(id, config, { lease, taken: true });
      if (taken.eventCount > 0 || !config) {
        const why = `the worker that ran it stopped, and it was not resumed on another: ${taken.refusal ?? 'its stored config no longer parses'}`;
        return (await closeHeld(taken, why)) ? 'closed' : 'lost';
      }
      // Nothing stored yet, so nothing seen: the run starts from its config and seed as it would have at first.
      await prepare?.(config);
      const redactor = createRedactor({ secrets: runSecrets({ env: processEnv() }) });
      startLive(
        id,
        redactor,
        { config, ...(fork ? { fork } : {}), ...(cassette ? { cassette } : {}) },
        { lease, taken: true },
      );
      return 'started';
    },

    resumeInterrupted() {
      const work = resumeAll();
      resuming = work.catch(() => {});
      return work;
    },
  };

  /** The startup's resumption (see RunRegistry.resumeInterrupted). */
  async function resumeAll(): Promise<{ resumed: string[]; closed: string[] }> {
    const resumed: string[] = [];
    const closed: string[] = [];
    for (const { id, config, lease } of await store.claimInterruptedRuns()) {
      ((await resumeStored(id, config, { lease, taken: false })) === 'resumed' ? resumed : closed).push(id);
    }
    return { resumed, closed };
  }

  /**
   * Resumes a run whose log the store holds and this store opening owns (claimed or taken over):
   * re-executed from its config and seed, checked against its stored log and going on live here
   * (lib/server/resume-runs.ts); closed at once with the reason when its log cannot be made again.
   */
  async function resumeStored(
    id: string,
    config: RunConfig,
    held: { lease: number; taken: boolean },
  ): Promise<'resumed' | 'closed' | 'lost'> {
    const count = (await store.getRun(id))?.summary.event_count ?? 0;
    const stored = await store.readEventBodies({ runId: id, limit: count });
    // What stopped: this server's predecessor on the data folder, or the worker whose job this one took.
    const cut = `the ${held.taken ? 'worker' : 'server process'} executing this run stopped while it was in flight`;
    const refusal = storedLogRefusal(stored);
    if (refusal !== undefined)
      return (await closeHeld({ id, lease: held.lease }, `${cut}; ${refusal}`)) ? 'closed' : 'lost';
    await prepare?.(config);
    const redactor = createRedactor({ secrets: runSecrets({ env: processEnv() }) });
    const run = newLiveRun(id, (text) => redactor.text(text), held.lease);
    // The store holds the log so far: a reconnect reads it from the tail or the store, as for any run.
    run.tail = await store.readEvents({ runId: id, afterSeq: Math.max(-1, count - TAIL_SIZE - 1) });
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
        ...taps(run),
        ...gated(run, held.taken),
        onEvent: (event, totals) => {
          if (diverged || run.ending) return;
          const verdict = check(event);
          if (verdict.kind === 'replayed') return;
          if (verdict.kind === 'new') return accept(run, event, totals);
          // The re-execution left the stored log: closed after it with the reason, the rest ignored.
          diverged = true;
          finish(run, async () => {
            if (await closeHeld(run, `${cut}; ${verdict.why}`, run))
              publish(run, await store.readEvents({ runId: id, afterSeq: count - 1 }));
          });
          queueMicrotask(() => run.handle?.control({ action: 'abort', reason: 'aborted' }));
        },
      },
      finish: () => finish(run),
    });
    return 'resumed';
  }
}
