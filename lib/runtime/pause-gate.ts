import type { Clock } from '@/lib/clock';
import type { Emit } from '@/lib/engine';
import {
  describeBreakpoint,
  type Breakpoint,
  type Decider,
  type PauseConfig,
  type PauseControl,
  type RunEvent,
  type RunTotals,
} from '@/lib/protocol';
import { formatMs } from '@/lib/protocol/format-duration';

/** What step, continue and cancel do, said in every paused event. */
const PAUSED_NEXT =
  'step: on to the next event, then paused again; continue: on until a breakpoint matches; cancel: the run ends';

/** Why a pause is due, waiting for the next point the run can stop at. */
interface Due {
  trigger: 'breakpoint' | 'step' | 'request';
  breakpoint?: Breakpoint;
  afterSeq?: number;
  reason: string;
}

/**
 * A run's pause gate: breakpoints, step / continue / cancel, and the pause the run holds there.
 *
 * A breakpoint on an event kind, a step and a cost over the line are seen as events leave the
 * run log (`observe`); the run then stops at the next point it can wait: before its next wait on
 * the clock, before its next model request goes out, before its next tool call. A breakpoint on
 * request N or on a tool stops right there. Stopping writes a `paused` event (why, and where) and
 * freezes the run clock until someone says go on (`resumed`, with who), so no deadline — the
 * stream watchdog, a backoff, the run-time budget — passes during the pause, on any clock. Nothing
 * else changes: a virtual-clock run paused and resumed writes the log it would have written, plus
 * its paused and resumed events.
 */
export interface PauseGate {
  /** The run clock as the run sees it: each wait first stops at a pause that is due. */
  readonly clock: Clock;
  /** Each event as it leaves the run log, with the totals after it. */
  observe(event: RunEvent, totals: Readonly<RunTotals>): void;
  /** The SDK's fetch, stopping before request N (a breakpoint) or at a pause that is due. */
  wrapFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch;
  /**
   * Before a tool call: stops at a tool breakpoint or a pause that is due. Returns undefined when
   * nothing stops it (the call goes on at once, as without the gate).
   */
  beforeTool(call: { id: string; name: string }): Promise<void> | undefined;
  /** Holds the run paused for a tool call waiting for approval (lib/runtime/tool-approval.ts). */
  holdFor(work: Promise<unknown>): void;
  /** A pause control (not the approval decisions, which tool-approval.ts takes). */
  control(message: Exclude<PauseControl, { action: 'approve' | 'deny' | 'edit' }>): void;
  /** Is the run paused now? */
  readonly paused: boolean;
}

export function createPauseGate(options: {
  config: PauseConfig | undefined;
  clock: Clock;
  emit: Emit;
  iteration: () => number;
  closed: () => boolean;
  /** The run's signal: an abort ends a pause. */
  signal: AbortSignal;
  /** Cancel: the run ends as aborted (the control queue's abort, with its event). */
  abort: () => void;
}): PauseGate {
  const { emit, iteration } = options;
  const inner = options.clock;
  let breakpoints: Breakpoint[] = [...(options.config?.breakpoints ?? [])];
  let due: Due | undefined;
  let stepping = false;
  /** The clock frozen: from the moment a pause is due until the run goes on. */
  let frozen: { promise: Promise<void>; release: () => void } | undefined;
  /** The paused event is written: the run stands at a point and waits for a person. */
  let held = false;
  let lastEvent = 'the start';
  let requests = 0;
  // A cost breakpoint stops once, when the cost first goes over its line.
  const costPassed = new Set<Breakpoint>();

  const note = (message: string, level: 'info' | 'warn' = 'info'): void => {
    if (!options.closed()) emit({ event: 'log', iteration: iteration(), level, message });
  };

  const unfreeze = (): void => {
    const was = frozen;
    frozen = undefined;
    held = false;
    due = undefined;
    was?.release();
  };

  const stop = (at: () => string): Promise<void> => {
    const why = due!;
    due = undefined;
    held = true;
    emit({
      event: 'paused',
      iteration: iteration(),
      trigger: why.trigger,
      ...(why.breakpoint ? { breakpoint: why.breakpoint } : {}),
      ...(why.afterSeq !== undefined ? { after_seq: why.afterSeq } : {}),
      reason: why.reason,
      at: at(),
      clock: 'held',
      next: PAUSED_NEXT,
    });
    return frozen!.promise;
  };

  /**
   * A pause is due: time stops at once (no timer fires, the virtual clock does not jump), and the
   * run stands still at the next point it can wait — or, when it reaches none before everything
   * runnable has run (a stream gone quiet), where it is.
   */
  const dueFrom = (next: Due): void => {
    if (due || held || options.closed() || options.signal.aborted) return;
    due = next;
    if (!frozen) {
      let release: () => void = () => {};
      const promise = new Promise<void>((resolve) => (release = resolve));
      frozen = { promise, release };
      void inner.freeze(promise);
    }
    setImmediate(() => {
      if (due === next && !options.closed())
        void stop(() => `after ${lastEvent}, waiting on the vendor or a tool`);
    });
  };

  /** At a point the run can stop at: stops if a pause is due; while paused, the wait for the end of it. */
  const reach = (at: () => string): Promise<void> | undefined => {
    if (!frozen || options.closed() || options.signal.aborted) return undefined;
    if (due && !held) return stop(at);
    return frozen.promise;
  };

  // An abort (the abort control, a budget) ends the pause: the run goes on to its terminate.
  options.signal.addEventListener('abort', unfreeze, { once: true });

  const clock: Clock = {
    kind: inner.kind,
    timeScale: inner.timeScale,
    now: () => inner.now(),
    hold: (work) => inner.hold(work),
    freeze: (work) => inner.freeze(work),
    // Time stands still while paused, so a wait set now simply does not run down until the pause
    // ends: the wait is set at once, in the order it would have been (the log stays the same).
    sleep: (ms, signal) => {
      void reach(() => `before a wait of ${formatMs(ms)}`);
      return inner.sleep(ms, signal);
    },
    setTimer: (ms, callback) => {
      void reach(() => `before a wait of ${formatMs(ms)}`);
      return inner.setTimer(ms, callback);
    },
  };

  return {
    clock,
    get paused() {
      return held;
    },
    observe(event, totals) {
      if (event.event === 'paused' || event.event === 'resumed' || event.event === 'tool_approval') return;
      if (event.event === 'terminate') return unfreeze();
      lastEvent = `${event.event} (seq ${event.seq})`;
      if (stepping) {
        stepping = false;
        dueFrom({ trigger: 'step', afterSeq: event.seq, reason: `one step: stopped after ${event.event}` });
      }
      for (const breakpoint of breakpoints) {
        if (breakpoint.on === 'event' && breakpoint.event === event.event)
          dueFrom({
            trigger: 'breakpoint',
            breakpoint,
            afterSeq: event.seq,
            reason: `breakpoint ${describeBreakpoint(breakpoint)}: a ${event.event} event was written`,
          });
        if (breakpoint.on === 'cost' && totals.usd > breakpoint.usd && !costPassed.has(breakpoint)) {
          costPassed.add(breakpoint);
          dueFrom({
            trigger: 'breakpoint',
            breakpoint,
            afterSeq: event.seq,
            reason: `breakpoint ${describeBreakpoint(breakpoint)}: the run has spent $${totals.usd.toFixed(4)}`,
          });
        }
      }
    },
    wrapFetch(fetch) {
      return ((input: RequestInfo | URL, init?: RequestInit) => {
        requests += 1;
        const n = requests;
        const breakpoint = breakpoints.find((b) => b.on === 'request' && b.request === n);
        if (breakpoint)
          dueFrom({
            trigger: 'breakpoint',
            breakpoint,
            reason: `breakpoint ${describeBreakpoint(breakpoint)}`,
          });
        const wait = reach(() => `before request ${n} goes to the vendor`);
        // Not paused: straight on, with no extra turn of the event loop (the log stays the same).
        return wait ? wait.then(() => fetch(input, init)) : fetch(input, init);
      }) as typeof globalThis.fetch;
    },
    beforeTool(call) {
      const breakpoint = breakpoints.find(
        (b) => b.on === 'tool' && (b.tool === undefined || b.tool === call.name),
      );
      if (breakpoint)
        dueFrom({
          trigger: 'breakpoint',
          breakpoint,
          reason: `breakpoint ${describeBreakpoint(breakpoint)}: the model called ${call.name}`,
        });
      return reach(() => `before the ${call.name} call ${call.id} runs`);
    },
    holdFor(work) {
      void inner.freeze(
        work.then(
          () => undefined,
          () => undefined,
        ),
      );
    },
    control(message) {
      if (options.closed()) return;
      switch (message.action) {
        case 'pause':
          if (held) return note(`pause asked for by ${message.by}: the run is already paused`, 'warn');
          dueFrom({ trigger: 'request', reason: `a pause was asked for (by ${message.by})` });
          return;
        case 'set_breakpoints':
          breakpoints = [...message.breakpoints];
          costPassed.clear();
          return note(
            `breakpoints set by ${message.by}: ${breakpoints.length === 0 ? 'none' : breakpoints.map(describeBreakpoint).join(', ')}`,
          );
        case 'step':
        case 'continue':
        case 'cancel':
          return resume(message.action, message.by);
      }
    },
  };

  function resume(action: 'step' | 'continue' | 'cancel', by: Decider): void {
    if (!held) {
      // Cancel means the same whether paused or not: the run ends.
      if (action === 'cancel') return options.abort();
      return note(`${action} asked for by ${by}, but the run is not paused: nothing to do`, 'warn');
    }
    const next =
      action === 'step'
        ? 'the run goes on to its next event and pauses again'
        : action === 'continue'
          ? breakpoints.length > 0
            ? `the run goes on until a breakpoint matches (${breakpoints.map(describeBreakpoint).join(', ')})`
            : 'the run goes on; no breakpoint is set'
          : 'the run ends here, aborted';
    emit({ event: 'resumed', iteration: iteration(), action, by, next });
    if (action === 'step') stepping = true;
    if (action === 'cancel') options.abort();
    unfreeze();
  }
}
