/** A live run's hold on the store's lease: losing it to another process, closing and gating under it. */
import type { LaunchOptions } from '@/lib/runtime/types';
import { RunLeaseLost, type RunStore } from '@/lib/store';
import { endAll } from './run-fan-out';
import { leaseGate, lostLine } from './run-lease';
import type { LiveRun } from './live-run';

/** What the run registry does with the lease its live runs (`live`, keyed by id) are held under. */
export function createRunHolds(store: RunStore, live: Map<string, LiveRun>) {
  /**
   * Stops a run another process has taken over (the store refused its lease): nothing it still
   * logs is written or sent, its launch is aborted, and it leaves at once.
   */
  const lose = (run: LiveRun, why: string): void => {
    if (run.lost) return;
    run.lost = true;
    run.ending = true;
    run.pending = [];
    run.pendingTotals = [];
    clearTimeout(run.idleTimer);
    console.error(lostLine(run.id, why));
    if (live.get(run.id) === run) live.delete(run.id);
    try {
      run.handle?.control({ action: 'abort', reason: 'aborted' });
    } catch (error) {
      console.error(`[loop-lab] run ${run.id}: its lost launch was not aborted: ${String(error)}`);
    }
    endAll(run);
    run.logged();
    run.finished('lost');
  };
  /** Closes a run of this process's under its lease; a run taken over meanwhile is lost instead. */
  const closeHeld = async (
    run: { id: string; lease: number },
    why: string,
    live?: LiveRun,
  ): Promise<boolean> => {
    try {
      await store.closeInterruptedRuns({ runId: run.id, why, lease: run.lease });
      return true;
    } catch (error) {
      if (!(error instanceof RunLeaseLost)) throw error;
      if (live) lose(live, error.message);
      else console.error(lostLine(run.id, error.message));
      return false;
    }
  };
  /** A worker's run asks the store before each vendor request whether it still holds it. */
  const gated = (run: LiveRun, taken: boolean): Pick<LaunchOptions, 'tapFetch'> =>
    taken
      ? {
          tapFetch: leaseGate({
            store,
            runId: run.id,
            lease: run.lease,
            isLost: () => run.lost,
            lost: (why) => lose(run, why),
          }),
        }
      : {};
  return { lose, closeHeld, gated };
}
