import { serverEnv } from '@/lib/config/server-env';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { benchProbe } from '@/lib/clock/bench-probe';
import { NO_TOTALS, terminateAfter, type RunEvent, type RunTotals } from '@/lib/protocol';
import { createRedactor, runSecrets, type Redactor } from '@/lib/runtime/redact-secrets';
import { processEnv } from '@/lib/config/server-env';
import type { LaunchOptions, RunHandle } from '@/lib/runtime/types';
import { workerBundle, type WorkerBundleSpec } from '@/lib/sweeps/worker-bundle';
import type { FromRunThread, ToRunThread } from './messages';

/** The run thread's code (run-thread-entry.ts), bundled beside the sweep worker's. */
export const RUN_THREAD_BUNDLE: WorkerBundleSpec = {
  entry: path.join('lib', 'run-threads', 'run-thread-entry.ts'),
  out: path.join('node_modules', '.cache', 'loop-lab', 'run-thread.mjs'),
};

/**
 * LOOP_LAB_RUN_THREADS: how many run threads a server keeps (DEFAULT_RUN_THREADS, 2, when unset);
 * 0 runs real-clock runs on the main thread, as before run threads existed.
 */
export function runThreadCount(): number {
  return serverEnv().runThreads;
}

export interface RunThreads {
  /** Starts a run on the thread with the fewest runs; the same contract as launchRun. */
  launch(options: LaunchOptions): RunHandle;
  /** Stops every thread; their runs' handles resolve (the registry ends their logs). */
  close(): Promise<void>;
}

interface RunOnThread {
  onEvent: LaunchOptions['onEvent'];
  onExchange: LaunchOptions['onExchange'];
  onWire: LaunchOptions['onWire'];
  finished: () => void;
  /** The last event the thread sent, and the run's totals after it: what a terminate needs if the thread dies. */
  last: RunEvent | undefined;
  totals: Readonly<RunTotals>;
  ended: boolean;
}

interface Thread {
  /** Undefined until the bundle is ready; messages wait in `queued` until then. */
  worker: Worker | undefined;
  queued: ToRunThread[];
  runs: Map<string, RunOnThread>;
  gone: boolean;
}

/**
 * Real-clock runs on worker threads, so that the server's main thread — routing, storing each
 * event, SSE fan-out — never runs inside a run's deadline: a watchdog, a backoff or a simulated
 * vendor's pace fires on a thread that does nothing but runs. Each thread loads the runtime
 * once from one bundled file and hosts many runs; events come back batched (at most one message
 * per turn of the thread's event loop and per 10 ms, run-thread-entry.ts) and are handed to `onEvent` in seq order, as launchRun does
 * in-process. A thread that dies takes its runs with it: their handles resolve and the
 * registry ends each log with an internal_error terminate; the next run starts a new thread.
 */
export function createRunThreads({
  threads = runThreadCount(),
  bundle = () => workerBundle(RUN_THREAD_BUNDLE),
} = {}): RunThreads {
  const pool: Thread[] = [];

  const post = (thread: Thread, message: ToRunThread): void => {
    if (thread.worker) thread.worker.postMessage(message);
    else thread.queued.push(message);
  };

  const lose = (thread: Thread, why: string): void => {
    if (thread.gone) return;
    thread.gone = true;
    pool.splice(pool.indexOf(thread), 1);
    if (thread.runs.size > 0)
      console.error(`[loop-lab] a run thread stopped with ${thread.runs.size} runs on it: ${why}`);
    for (const [runId, run] of thread.runs) {
      // The thread took the run's own log with it: its end is written here, from what the thread sent.
      if (!run.ended) {
        const message = `the run thread stopped (${why}); the run ended with it`;
        run.onEvent(
          terminateAfter(run.last, {
            runId,
            reason: 'internal_error',
            complete: false,
            message,
            totals: run.totals,
          }),
          run.totals,
        );
      }
      run.finished();
    }
    thread.runs.clear();
  };

  const receive = (thread: Thread, message: FromRunThread): void => {
    if (message.type === 'done') {
      thread.runs.get(message.runId)?.finished();
      thread.runs.delete(message.runId);
      if (thread.runs.size === 0) thread.worker?.unref();
      return;
    }
    if (message.late) benchProbe()?.watchdogLateWallMs.push(...message.late);
    if (message.due) benchProbe()?.watchdogDueAtMs.push(...message.due);
    if (message.timerLate) benchProbe()?.runThreadTimerLateWallMs.push(...message.timerLate);
    for (const [runId, exchanges] of message.exchanges ?? []) {
      const keep = thread.runs.get(runId)?.onExchange;
      for (const exchange of exchanges) keep?.(exchange);
    }
    for (const [runId, wire] of message.wire ?? []) {
      const keep = thread.runs.get(runId)?.onWire;
      for (const exchange of wire) keep?.(exchange);
    }
    for (const [runId, [events, totals]] of message.runs) {
      const run = thread.runs.get(runId);
      if (!run) continue;
      for (let i = 0; i < events.length; i += 1) {
        const event = events[i]!;
        // Kept (as the thread's run log folded them) so a thread that dies can still end the log with true totals.
        run.last = event;
        run.totals = totals[i]!;
        if (event.event === 'terminate') run.ended = true;
        try {
          run.onEvent(event, run.totals);
        } catch (error) {
          console.error(`[loop-lab] run ${runId}: an event listener failed:`, (error as Error).message);
        }
      }
    }
  };

  const startThread = (): Thread => {
    const thread: Thread = { worker: undefined, queued: [], runs: new Map(), gone: false };
    pool.push(thread);
    bundle().then(
      (filename) => {
        if (thread.gone) return;
        // execArgv []: the bundle is plain JavaScript (no tsx loader thread per worker).
        const worker = new Worker(filename, { execArgv: [] });
        thread.worker = worker;
        worker.on('message', (message: FromRunThread) => receive(thread, message));
        worker.on('error', (error) => lose(thread, error.message));
        worker.on('exit', (code) => lose(thread, `exit code ${code}`));
        for (const message of thread.queued.splice(0)) worker.postMessage(message);
        if (thread.runs.size === 0) worker.unref();
      },
      (error: unknown) => lose(thread, `its code could not be built: ${(error as Error).message}`),
    );
    return thread;
  };

  return {
    launch({ runId, config, apiKey, fork, onEvent, onExchange, onWire, cassette }) {
      while (pool.length < threads) startThread();
      const thread = pool.reduce((a, b) => (b.runs.size < a.runs.size ? b : a));
      let finished!: () => void;
      const done = new Promise<void>((resolve) => (finished = resolve));
      thread.runs.set(runId, {
        onEvent,
        onExchange,
        onWire,
        finished,
        last: undefined,
        totals: NO_TOTALS,
        ended: false,
      });
      // The thread redacts the run's events; this is for text the registry logs about the run,
      // which only a failure writes: built on first use, not on the POST that starts the run.
      const swapKeys: string[] = [];
      let redactor: Redactor | undefined;
      const redactText = (text: string): string =>
        (redactor ??= createRedactor({
          secrets: [...runSecrets({ apiKey, env: processEnv() }), ...swapKeys],
        })).text(text);
      thread.worker?.ref();
      post(thread, {
        type: 'start',
        runId,
        config,
        ...(apiKey ? { apiKey } : {}),
        ...(fork ? { fork } : {}),
        ...(cassette ? { cassette } : {}),
        ...(onExchange ? { record: true } : {}),
        ...(onWire ? { wire: true } : {}),
      });
      return {
        runId,
        done,
        control: (message) => {
          if (message.action === 'swap' && message.target.apiKey) {
            swapKeys.push(message.target.apiKey);
            redactor = undefined;
          }
          if (!thread.gone) post(thread, { type: 'control', runId, message });
        },
        redactText,
      };
    },
    async close() {
      const workers = pool.map((thread) => thread.worker);
      for (const thread of [...pool]) lose(thread, 'closed');
      await Promise.all(workers.map((worker) => worker?.terminate()));
    },
  };
}

/**
 * The registry's launch: real-clock runs on the run threads (when there are any), virtual- and
 * paced-clock runs in this thread. A busy main thread can make a real-clock deadline late (a
 * different run); a paced run's jumps only come later, with the same events (lib/clock/paced-clock.ts).
 */
export function launchRealClockOnThreads(
  threads: RunThreads | undefined,
  launchHere: (options: LaunchOptions) => RunHandle,
): (options: LaunchOptions) => RunHandle {
  return (options) =>
    threads && options.config.clock === 'real' && !options.onVendorRequest && !options.tapFetch
      ? threads.launch(options)
      : launchHere(options);
}
