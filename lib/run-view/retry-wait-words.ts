import { formatMs } from './format';
import type { RetryView } from './attempt-view';

/**
 * A finished retry wait in words, from two events' own times: the retry's scheduled wait and the
 * run time at which the next request went out. When they read the same, "waited 3.9 s". When the
 * next request went out later than the wait (the loop's own work between them, which on the real
 * clock at a small time scale is magnified: 150 ms of work at 0.1 is 1.5 s of run time), both are
 * said, so "at once" on the attempt and the time beside it never contradict each other.
 */
export function retryWaitWords(retry: Pick<RetryView, 'waitMs' | 'actualWaitMs'>): string | undefined {
  if (retry.actualWaitMs === undefined) return undefined;
  const actual = formatMs(retry.actualWaitMs);
  if (actual === formatMs(retry.waitMs)) return `waited ${actual}`;
  const scheduled =
    retry.waitMs === 0 ? 'no wait scheduled' : `a wait of ${formatMs(retry.waitMs)} scheduled`;
  return `next request ${actual} later (${scheduled}; the rest was the loop's own work)`;
}
