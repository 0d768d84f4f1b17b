import { parentPort } from 'node:worker_threads';
import { dueAt } from '@/lib/clock/bench-probe';
import { serverEnv } from '@/lib/config/server-env';
import {
  NO_TOTALS,
  terminateAfter,
  type CassetteExchange,
  type RunEvent,
  type RunTotals,
  type WireExchange,
} from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import type { RunHandle } from '@/lib/runtime/types';
import { warmUp } from '@/lib/runtime/warm-up';
import type { FromRunThread, ToRunThread } from './messages';

/** The load bench's opt-in figures, measured on this thread as on the main one and sent with the events. */
const late: number[] | undefined = serverEnv().benchDiagnostics ? [] : undefined;
const due: number[] = [];
const probe = late
  ? {
      watchdogFiredLate: (wallMs: number) => {
        late.push(wallMs);
        due.push(dueAt(wallMs));
      },
    }
  : undefined;
/**
 * The floor under the watchdog's figure on this thread: a bare 20 ms timer, armed over and over
 * while the thread has runs, and how late each firing was. Beside the same timer on an idle thread
 * (lib/server/bench-diagnostics.ts) it tells the machine's share of a late watchdog from the runs'.
 */
const timerLate: number[] | undefined = late ? [] : undefined;
if (timerLate) {
  const arm = (): void => {
    const due = performance.now() + 20;
    setTimeout(() => {
      if (runs.size > 0) timerLate.push(performance.now() - due);
      arm();
    }, 20).unref();
  };
  arm();
}

/**
 * A run thread (lib/run-threads/run-threads.ts): real-clock runs execute here, each with its
 * own clock and timers, so the server's main thread (routing, storing, SSE) never delays a
 * run's deadlines and no run's synchronous work delays another's beyond its thread. Loaded as
 * one bundled file (lib/sweeps/worker-bundle.ts). Events go back in batches, at most one message
 * per turn of this thread's event loop and per MESSAGE_GAP_MS, each run's in seq order.
 */
const port = parentPort!;
const runs = new Map<string, RunHandle>();
/** Each run's events since the last message, with the run's totals after each (from its run log). */
let outbox = new Map<string, [RunEvent[], Readonly<RunTotals>[]]>();
let exchangeOutbox = new Map<string, CassetteExchange[]>();
let wireOutbox = new Map<string, WireExchange[]>();
let scheduled = false;
/**
 * Least wall time between two messages of events while the thread is busy. Each message wakes the
 * main thread, and on a machine with every core taken a woken thread can take the core from this
 * one there and then (measured under a load of ~20 on 2 cores: postMessage p50 0.05 ms, p99 7 ms,
 * where the same work without the wake-up never passed 0.01 ms): a burst of runs each sending its
 * own message in its own turn gave the thread as many chances to lose its core inside its runs'
 * deadlines. The first events after a quiet spell still go out on the next turn; only a thread
 * that has just sent waits out the rest of the gap, sending every run's events since in one.
 */
const MESSAGE_GAP_MS = 10;
let lastSent = -Infinity;
/** Each run's latest event and totals, for a launch that throws part way (its terminate follows it). */
const lastOf = new Map<string, { event: RunEvent; totals: Readonly<RunTotals> }>();

const send = (message: FromRunThread): void => port.postMessage(message);

const flush = (): void => {
  scheduled = false;
  const lateNow = late?.splice(0);
  const timerLateNow = timerLate?.splice(0);
  if (outbox.size === 0 && exchangeOutbox.size === 0 && wireOutbox.size === 0 && !lateNow?.length) return;
  lastSent = performance.now();
  send({
    type: 'events',
    runs: [...outbox],
    ...(lateNow?.length ? { late: lateNow, due: due.splice(0) } : {}),
    ...(timerLateNow?.length ? { timerLate: timerLateNow } : {}),
    ...(exchangeOutbox.size > 0 ? { exchanges: [...exchangeOutbox] } : {}),
    ...(wireOutbox.size > 0 ? { wire: [...wireOutbox] } : {}),
  });
  outbox = new Map();
  exchangeOutbox = new Map();
  wireOutbox = new Map();
};

/** The next message: on the next turn, or once MESSAGE_GAP_MS have passed since the last one. */
const schedule = (): void => {
  if (scheduled) return;
  scheduled = true;
  const wait = lastSent + MESSAGE_GAP_MS - performance.now();
  if (wait > 0) setTimeout(flush, wait);
  else setImmediate(flush);
};

const emit = (runId: string, event: RunEvent, totals: Readonly<RunTotals>): void => {
  lastOf.set(runId, { event, totals });
  const queue = outbox.get(runId);
  if (queue) {
    queue[0].push(event);
    queue[1].push(totals);
  } else outbox.set(runId, [[event], [totals]]);
  schedule();
};

const keepIn =
  <T>(outboxOf: () => Map<string, T[]>) =>
  (runId: string, item: T): void => {
    const outbox = outboxOf();
    const queue = outbox.get(runId);
    if (queue) queue.push(item);
    else outbox.set(runId, [item]);
    schedule();
  };
const keepExchange = keepIn(() => exchangeOutbox);
const keepWire = keepIn(() => wireOutbox);

const start = (message: Extract<ToRunThread, { type: 'start' }>): void => {
  const { runId, config, apiKey, fork, cassette } = message;
  let handle: RunHandle;
  try {
    handle = launchRun({
      runId,
      config,
      ...(apiKey ? { apiKey } : {}),
      ...(fork ? { fork } : {}),
      ...(cassette ? { cassette } : {}),
      ...(message.record
        ? { onExchange: (exchange: CassetteExchange) => keepExchange(runId, exchange) }
        : {}),
      ...(message.wire ? { onWire: (exchange: WireExchange) => keepWire(runId, exchange) } : {}),
      onEvent: (event, totals) => emit(runId, event, totals),
      probe,
    });
  } catch (error) {
    // As the registry does for a launch that throws in its own thread: the log still ends.
    const message = `the run could not start: ${(error as Error).message}`;
    const last = lastOf.get(runId);
    lastOf.delete(runId);
    const totals = last?.totals ?? NO_TOTALS;
    // The terminate states the totals it ends on, as the run log's fold would take them.
    const end = terminateAfter(last?.event, {
      runId,
      reason: 'internal_error',
      complete: false,
      message,
      totals,
    });
    emit(runId, end, totals);
    flush();
    send({ type: 'done', runId });
    return;
  }
  runs.set(runId, handle);
  void handle.done.then(() => {
    runs.delete(runId);
    lastOf.delete(runId);
    flush();
    send({ type: 'done', runId });
  });
};

/**
 * Messages in the order they came, handled at most one start a turn of this thread's event loop:
 * a hundred runs POSTed at once reach a thread as one burst of starts, and started together
 * they would make their first steps, and every deadline after, fall due together. Between two
 * starts the timers and events of the runs already going get their turn. A control message
 * waits behind the start of its run.
 */
const inbox: ToRunThread[] = [];
let draining = false;
const drain = (): void => {
  draining = false;
  while (inbox.length > 0) {
    const message = inbox.shift()!;
    if (message.type !== 'start') {
      runs.get(message.runId)?.control(message.message);
      continue;
    }
    start(message);
    if (inbox.length > 0) {
      draining = true;
      setImmediate(drain);
    }
    return;
  }
};

// This thread's one-time costs (tokenizer, first SDK parse) are paid before its first run's
// clock starts: every message waits for them, in the order it came.
const ready = warmUp();
port.on('message', (message: ToRunThread) => {
  inbox.push(message);
  if (draining) return;
  draining = true;
  void ready.then(drain);
});
