import type { AttemptView } from './run-view-state';

/**
 * Failed attempts the loop answered with another attempt. An attempt whose result was kept
 * (a Partial: the stream was cut after content arrived, and what arrived is the answer) is
 * not a failure the turn "recovered after" — it is the answer itself, cut.
 */
export function retriedFailures(attempts: readonly Pick<AttemptView, 'attempt' | 'error' | 'watchdog'>[], keptAttempt: number | undefined): number {
  return attempts.filter((a) => (a.error !== undefined || a.watchdog?.fired !== undefined) && a.attempt !== keptAttempt).length;
}
