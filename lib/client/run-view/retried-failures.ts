import type { AttemptView } from '@/lib/run-view/run-view-state';

/**
 * Failed attempts the loop answered with another attempt: exactly those that carry a
 * `retry_scheduled` decision. A cut attempt whose Partial was kept, or a last failure the call
 * gave up on, has none.
 */
export function retriedFailures(attempts: readonly Pick<AttemptView, 'retry'>[]): number {
  return attempts.filter((a) => a.retry !== undefined).length;
}
