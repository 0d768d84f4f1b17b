import type { CassetteStore } from '@/lib/store';
import type { SweepCassettes } from './execute-sweep';

/**
 * A sweep's recordings in the cassette store: each real run's cassette saved under its run's
 * name (`<sweep id>-<job>`, with the run it came from), and found again by that run for a rerun
 * with replayFrom (the newest when there are several).
 */
export function storedSweepCassettes(
  store: Pick<CassetteStore, 'saveCassette' | 'getCassette' | 'listCassettes'>,
): SweepCassettes & {
  /** The runs that kept a recording (for a re-run from cassettes, which needs one each). */
  recordedRuns(): Promise<ReadonlySet<string>>;
} {
  let byRun: Map<string, string> | undefined;
  const recordings = async (): Promise<Map<string, string>> => {
    if (!byRun) {
      const found = new Map<string, string>();
      // Newest first: the first one seen for a run is kept.
      for (const c of await store.listCassettes())
        if (c.from_run && !found.has(c.from_run)) found.set(c.from_run, c.id);
      byRun ??= found;
    }
    return byRun;
  };
  return {
    async save(runId, cassette) {
      const summary = await store.saveCassette({ name: `sweep run ${runId}`, cassette, fromRun: runId });
      byRun?.set(runId, summary.id);
    },
    async forRun(runId) {
      const id = (await recordings()).get(runId);
      const found = id ? await store.getCassette(id) : undefined;
      return found && id ? { id, cassette: found.cassette } : undefined;
    },
    async recordedRuns() {
      return new Set((await recordings()).keys());
    },
  };
}
