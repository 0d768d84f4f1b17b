import type { RunEvent } from '@/lib/protocol';
import { useRunStore } from '../run-view/run-store-provider';

/**
 * The event with this seq in an append-only log. Seqs are contiguous from 0, so it is
 * usually at its own index; a log that started later (a resumed stream) is searched.
 */
export function eventAt(log: readonly RunEvent[], seq: number): RunEvent | undefined {
  const direct = log[seq];
  if (direct?.seq === seq) return direct;
  let lo = 0;
  let hi = log.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = log[mid]!.seq;
    if (at === seq) return log[mid];
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** One event of the run's log by seq: a stable reference, so the caller re-renders only when it appears. */
export function useLogEvent(seq: number | undefined): RunEvent | undefined {
  return useRunStore((s) => (seq === undefined ? undefined : eventAt(s.log, seq)));
}
