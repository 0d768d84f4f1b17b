import type { AttemptView } from './run-view-state';

/**
 * What a ladder step says after its error's category: " · final" when the error is not
 * retryable, and " · no retries left" when it is retryable but it was the last attempt the
 * budget allows — without it the last rung of an exhausted ladder reads like one more retry
 * is coming. `maxAttempts` is the budget's attempts as the retry events report it (0: unknown).
 */
export function ladderErrorNote(attempt: Pick<AttemptView, 'attempt' | 'error' | 'retry'>, maxAttempts: number): string {
  if (!attempt.error) return '';
  if (!attempt.error.retryable) return ' · final';
  if (!attempt.retry && maxAttempts > 0 && attempt.attempt >= maxAttempts) return ' · no retries left';
  return '';
}
