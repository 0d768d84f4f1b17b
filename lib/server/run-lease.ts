import type { LaunchOptions } from '@/lib/runtime/types';
import type { RunStore } from '@/lib/store';

/** Why a run stopped in a process that no longer holds it (one line in that process's log). */
export function lostLine(runId: string, why: string): string {
  return `[loop-lab] run ${runId}: lost to another holder, stopped here without another request or event (${why})`;
}

/**
 * The fetch a run taken over by a queue worker sends its vendor requests through: before each,
 * the store is asked whether the run is still held under the worker's lease. A worker stalled past
 * its hold on the job (SIGSTOP, a long pause) wakes to find another holder: the request is not
 * sent, `lost` stops the run here, and the fetch fails as aborted. A request that had passed the
 * check when the process stalled still goes out: the check is made as late as the worker can.
 */
export function leaseGate({
  store,
  runId,
  lease,
  isLost,
  lost,
}: {
  store: RunStore;
  runId: string;
  lease: number;
  isLost: () => boolean;
  lost: (why: string) => void;
}): NonNullable<LaunchOptions['tapFetch']> {
  return (fetch, clock) => async (input, init) => {
    // Held on the run's clock: the read takes real time, in which no run time may pass.
    if (!isLost() && (await clock.hold(store.holdsLease({ runId, lease })))) return fetch(input, init);
    lost(`its lease ${lease} was replaced before a vendor request`);
    throw new DOMException(`run ${runId} is held by another process now`, 'AbortError');
  };
}
