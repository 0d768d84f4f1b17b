import type { WireExchange } from '@/lib/protocol';
import type { LaunchOptions, RunHandle } from '@/lib/runtime/types';
import type { WireStore } from '@/lib/store';
import type { PendingLog } from './run-batches';
import type { FanOut } from './run-fan-out';

/** A live run: its log's unwritten events (run-batches.ts), its readers (run-fan-out.ts), its life here. */
export interface LiveRun extends PendingLog, FanOut {
  handle: RunHandle | undefined;
  /** Its terminate is logged (or its launch is dropped): nothing more is accepted; it leaves once written. */
  ending: boolean;
  /** Another process took it over (the store refused this one's lease): stopped here, nothing more written. */
  lost: boolean;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  finished: (outcome: 'ended' | 'lost') => void;
  done: Promise<'ended' | 'lost'>;
  firstStored: Promise<void>;
}

/** A run just started: nothing logged, nobody subscribed, its two promises unresolved. */
export function newLiveRun(id: string, redactText: (text: string) => string, lease: number): LiveRun {
  let finished!: (outcome: 'ended' | 'lost') => void;
  const done = new Promise<'ended' | 'lost'>((resolve) => (finished = resolve));
  let logged!: () => void;
  const firstStored = new Promise<void>((resolve) => (logged = resolve));
  return {
    id,
    lease,
    redactText,
    handle: undefined,
    ending: false,
    lost: false,
    pending: [],
    pendingTotals: [],
    writing: Promise.resolve(),
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
export function keepWire(wire: WireStore, runId: string, exchange: WireExchange): void {
  wire.keepWire({ runId, exchange }).catch((error: unknown) => {
    console.error(
      `[loop-lab] run ${runId}: request ${exchange.n}'s wire was not kept: ${(error as Error).message}`,
    );
  });
}

/** Aborts the run as abandoned once nobody has watched it for `unwatchedMs`. */
export function armIdleTimer(run: LiveRun, unwatchedMs: number): void {
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
export function launchLive(input: {
  run: LiveRun;
  launch: (options: LaunchOptions) => RunHandle;
  options: LaunchOptions;
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
  run.handle.done
    .then(() => {
      if (run.ending) return;
      console.error(
        `[loop-lab] run ${run.id}: the launch ended without a terminate event; its log is left open`,
      );
      finish();
    })
    .catch((error: unknown) => {
      console.error(`[loop-lab] run ${run.id}: its launch failed: ${run.redactText(String(error))}`);
      finish();
    });
}
