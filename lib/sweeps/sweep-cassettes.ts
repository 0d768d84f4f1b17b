import type { CassetteStore } from '@/lib/store';
import type { SweepCassettes } from './execute-sweep';

/**
 * A sweep's recordings in the cassette store: each real run's cassette saved under its run's
 * name (`<sweep id>-<job>`, with the run it came from), and found again by that run for a rerun
 * with replayFrom (the newest when there are several).
 */
export function storedSweepCassettes(
  store: Pick<CassetteStore, 'saveCassette' | 'getCassette' | 'listCassettes'>,
): SweepCassettes {
  let byRun: Map<string, string> | undefined;
  return {
    save(runId, cassette) {
      const summary = store.saveCassette({ name: `sweep run ${runId}`, cassette, fromRun: runId });
      byRun?.set(runId, summary.id);
    },
    forRun(runId) {
      if (!byRun) {
        byRun = new Map();
        // Newest first: the first one seen for a run is kept.
        for (const c of store.listCassettes())
          if (c.from_run && !byRun.has(c.from_run)) byRun.set(c.from_run, c.id);
      }
      const id = byRun.get(runId);
      const found = id ? store.getCassette(id) : undefined;
      return found && id ? { id, cassette: found.cassette } : undefined;
    },
  };
}
