import type { RecoveryConfig } from '@/lib/protocol';
import type { FaultEffect } from './fault-kinds';
import { POINTS, type InjectionPoint } from './injection-points';

/** How the run must end, and by which path. */
export type Ending =
  'completes' | 'model_error' | 'retries_exhausted' | 'run_time_budget' | 'partial_response';
/**
 * What carried the run past the fault: nothing needed to (`untouched`), the SDK, the loop's
 * retry, the watchdog (Empty retry or Partial kept); or nothing did — the error surfaced, or
 * the run waited until a budget ended it (`waited_out`).
 */
export type Path =
  'untouched' | 'sdk_retry' | 'loop_retry' | 'watchdog_empty' | 'partial_kept' | 'surfaced' | 'waited_out';

export interface CellPromise {
  ending: Ending;
  path: Path;
  /** The rule that produced this promise, in words (printed when a cell breaks it). */
  rule: string;
}

/**
 * The promise a recovery configuration makes for one fault at one point: the engine's
 * semantics stated once, read only from the effective config's fields (never from a preset's
 * name), so a preset that changes carries its promises with it. One fault, one request: the
 * faulted request is the only one that fails.
 */
export function promiseFor(options: {
  effect: FaultEffect;
  point: InjectionPoint;
  recovery: RecoveryConfig;
  /** What arrived before the point holds a finished tool call (its block closed on the wire). */
  keptToolCall?: boolean;
}): CellPromise {
  const { effect, point, recovery } = options;
  const { retry, watchdog, sdkMaxRetries } = recovery;
  const contentArrived = POINTS[point].contentArrived;
  const beforeHeaders = point === 'before_headers';
  // The watchdog's window on the first attempt, and whether one stream error already reaches the cap.
  const window = watchdog.baseMs;
  const capOfOne = watchdog.streamErrorCap === 1;

  if (effect.kind === 'slow') {
    if (!watchdog.enabled || effect.delayMs < window) {
      return {
        ending: 'completes',
        path: 'untouched',
        rule: 'a slow drip under the watchdog window (or with no watchdog) is only slow: nothing fails',
      };
    }
    return silence();
  }
  if (effect.kind === 'silence') return silence();

  // An error the SDK sees before any body: with its own retries on, it retries where the loop cannot see.
  if (beforeHeaders && effect.sdkRetryable && sdkMaxRetries > 0) {
    return {
      ending: 'completes',
      path: 'sdk_retry',
      rule: 'an SDK-retryable error before headers with sdkMaxRetries > 0 → the SDK retries it unseen; the loop never sees an error',
    };
  }
  // Content arrived: the watchdog's Partial rule keeps it and does not retry (no double billing).
  if (contentArrived && watchdog.enabled)
    return partialKept(
      'content arrived and the watchdog (with its Partial rule) is on → what arrived is kept, not retried',
    );
  if (!beforeHeaders && capOfOne) {
    return {
      ending: 'retries_exhausted',
      path: 'surfaced',
      rule: 'a stream error with a stream error cap of 1 → the call fails at once',
    };
  }
  if (!retry.enabled) {
    return {
      ending: 'model_error',
      path: 'surfaced',
      rule: 'loop retry off → the first error ends the run (model_error)',
    };
  }
  if (!effect.retryable) {
    return {
      ending: 'model_error',
      path: 'surfaced',
      rule: 'an authentication error, which every preset’s retry rule refuses → not retried, model_error',
    };
  }
  if (retry.retryOn === 'rate_limit_overloaded' && effect.family === 'other') {
    return {
      ending: 'model_error',
      path: 'surfaced',
      rule: 'a ladder that retries only rate limits and overloads (retryOn) → any other error is not retried: model_error',
    };
  }
  if (retry.maxRetries < 1) {
    return {
      ending: 'retries_exhausted',
      path: 'surfaced',
      rule: 'loop retry on with a budget of 0 retries → retries_exhausted',
    };
  }
  return {
    ending: 'completes',
    path: 'loop_retry',
    rule: 'a retryable error, loop retry on with budget left → retried after backoff; the run completes',
  };

  /** A Partial is kept; whether the run goes on depends on what it holds and on the continuation option. */
  function partialKept(why: string): CellPromise {
    if (options.keptToolCall) {
      return {
        ending: 'completes',
        path: 'partial_kept',
        rule: `${why}; it holds a finished tool call, which runs, and the loop goes on`,
      };
    }
    if (recovery.output.continueAfterPartial) {
      return {
        ending: 'completes',
        path: 'partial_kept',
        rule: `${why}; continueAfterPartial on → the model is asked to continue`,
      };
    }
    return {
      ending: 'partial_response',
      path: 'partial_kept',
      rule: `${why}; continueAfterPartial off → the partial response is presented and the run stops (partial_response)`,
    };
  }

  function silence(): CellPromise {
    if (!watchdog.enabled) {
      return {
        ending: 'run_time_budget',
        path: 'waited_out',
        rule: 'silence with no watchdog → nothing ends the wait but the run time budget',
      };
    }
    if (contentArrived)
      return partialKept(
        'silence after content with the watchdog on → it fires (Partial): what arrived is kept, not retried',
      );
    if (capOfOne) {
      return {
        ending: 'retries_exhausted',
        path: 'surfaced',
        rule: 'silence before content with a stream error cap of 1 → the watchdog fires and the call fails',
      };
    }
    if (!retry.enabled || retry.maxRetries < 1) {
      return {
        ending: 'retries_exhausted',
        path: 'surfaced',
        rule: 'silence before content: the watchdog fires (Empty), but its retry spends the retry budget and there is none',
      };
    }
    return {
      ending: 'completes',
      path: 'watchdog_empty',
      rule: 'silence before any content with the watchdog on → it fires (Empty) and retries at once; the run completes',
    };
  }
}
