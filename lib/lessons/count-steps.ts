import type { EventOf, RunEvent, RunEventType } from '@/lib/protocol';

/**
 * What one mechanism did in a run, counted from its events: the number a lesson's report puts
 * beside each side, so "what differed" is the mechanism's own work in numbers, not only totals.
 */
export interface MechanismSteps {
  count: number;
  /** The noun for one step and for several: "retry", "retries". */
  noun: [one: string, many: string];
  /** Run time the steps waited (backoff, Retry-After, watchdog windows, tool timeouts), when they wait. */
  waitedMs?: number;
  /** Steps of several kinds (a count a kind, summing to `count`): said kind by kind, not under the one noun. */
  parts?: { count: number; noun: [one: string, many: string] }[];
}

export const of = <T extends RunEventType>(log: readonly RunEvent[], type: T): EventOf<T>[] =>
  log.filter((e): e is EventOf<T> => e.event === type);
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
