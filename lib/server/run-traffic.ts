import 'server-only';
import { createExchangeKeeper } from '@/lib/cassettes';
import type { CassetteExchange } from '@/lib/protocol';

/** How many runs' traffic the server holds (the newest), and how much of each. */
export const KEPT_TRAFFIC_RUNS = 16;
export const KEPT_TRAFFIC_BYTES_PER_RUN = 8 * 1024 * 1024;

export interface RunTraffic {
  keep(runId: string, exchange: CassetteExchange): void;
  /** A run's kept exchanges, or undefined when the server no longer holds them (or never did). */
  get(runId: string): { exchanges: readonly CassetteExchange[]; truncated: boolean } | undefined;
}

/**
 * The model traffic of the newest runs, in memory, so a run page can save it as a cassette: at
 * most KEPT_TRAFFIC_RUNS runs (the oldest is let go when another starts) and
 * KEPT_TRAFFIC_BYTES_PER_RUN of exchanges each (past it the recording says it was cut). Nothing
 * is written until a person saves it; a restart lets it all go.
 */
export function createRunTraffic(bounds: { runs?: number; bytesPerRun?: number } = {}): RunTraffic {
  const maxRuns = bounds.runs ?? KEPT_TRAFFIC_RUNS;
  const kept = new Map<string, ReturnType<typeof createExchangeKeeper>>();
  return {
    keep(runId, exchange) {
      let keeper = kept.get(runId);
      if (!keeper) {
        keeper = createExchangeKeeper({ maxBytes: bounds.bytesPerRun ?? KEPT_TRAFFIC_BYTES_PER_RUN });
        kept.set(runId, keeper);
        while (kept.size > maxRuns) kept.delete(kept.keys().next().value!);
      }
      keeper.keep(exchange);
    },
    get(runId) {
      const keeper = kept.get(runId);
      return keeper ? { exchanges: keeper.exchanges, truncated: keeper.truncated } : undefined;
    },
  };
}
