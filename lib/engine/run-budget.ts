import type { Clock } from '@/lib/clock';
import { formatMs, type RunEventType } from '@/lib/protocol';

/** Why a budget ended the run: the terminate reason and a message that teaches what happened. */
export class RunBudgetExceeded extends Error {
  constructor(
    readonly reason: 'run_time_budget' | 'attempt_budget' | 'deadlock',
    message: string,
  ) {
    super(message);
    this.name = 'AbortError';
  }
}

/** Events after which the run is waiting on a model stream. */
const STREAM_WAITS: ReadonlySet<RunEventType> = new Set([
  'model_request',
  'watchdog_armed',
  'stream_open',
  'content_delta',
]);

/**
 * The run-time budget: one timer on the run clock that aborts the run's signal — the same
 * signal the SDK holds for the request in flight, so a stalled stream really stops. On the
 * virtual clock a stall leaves this timer as the only deadline, so time jumps straight to it.
 * Returns the cancel function (call it when the run ends, or the timer keeps a process alive).
 */
export function armRunTimeBudget(options: {
  clock: Clock;
  maxRunMs: number;
  watchdogEnabled: boolean;
  /** The type of the last event the engine emitted: what the run was doing when time ran out. */
  lastEvent: () => RunEventType | undefined;
  abort: (reason: RunBudgetExceeded) => void;
}): () => void {
  const { clock, maxRunMs } = options;
  return clock.setTimer(maxRunMs - clock.now(), () => {
    options.abort(
      new RunBudgetExceeded('run_time_budget', describeTimeBudget({ ...options, last: options.lastEvent() })),
    );
  });
}

/** "no watchdog: the stream stalled and the run hit its 30 min time budget", and its siblings. */
export function describeTimeBudget(options: {
  maxRunMs: number;
  watchdogEnabled: boolean;
  last: RunEventType | undefined;
}): string {
  const budget = `its ${formatMs(options.maxRunMs)} time budget`;
  const { last } = options;
  if (last !== undefined && STREAM_WAITS.has(last)) {
    return options.watchdogEnabled
      ? `a model stream was still open when the run hit ${budget}`
      : `no watchdog: the stream stalled and the run hit ${budget}`;
  }
  if (last === 'retry_scheduled') return `the run was waiting to retry when it hit ${budget}`;
  if (last === 'tool_start') return `a tool was still running when the run hit ${budget}`;
  return `the run hit ${budget}`;
}

/** The attempt budget's message: every model request counts, foreground and background. */
export function describeAttemptBudget(maxAttempts: number): string {
  return `${maxAttempts} model request attempts made (foreground and background): the run stops here rather than keep asking`;
}
