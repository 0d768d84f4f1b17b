import 'server-only';
import { MAX_CASSETTE_EXCHANGES, type CassetteExchange } from '@/lib/protocol';
import type { WireStore } from '@/lib/store';

/** How much of each run's traffic the store keeps for "Save as cassette": bytes of exchanges' JSON. */
export const KEPT_TRAFFIC_BYTES_PER_RUN = 8 * 1024 * 1024;

export interface RunTraffic {
  /** Keeps one exchange (already redacted with the run's keys), after the run's earlier ones. */
  keep(runId: string, exchange: CassetteExchange): void;
  /** Resolves once every exchange of the run handed to `keep` is stored (or failed, logged). */
  settled(runId: string): Promise<void>;
}

/**
 * Each run's model traffic, kept in the store (lib/store/wire-store.ts keepTraffic) as it crosses,
 * so "Save as cassette" works for a run whichever process executed it, after a restart too:
 * at most KEPT_TRAFFIC_BYTES_PER_RUN and MAX_CASSETTE_EXCHANGES of it (past them the recording
 * says it was cut). A run's writes go one after another; its registry waits for them before it
 * stores the run's terminate, so a finished run's traffic is all in the store.
 */
export function createRunTraffic({
  store,
  bytesPerRun = KEPT_TRAFFIC_BYTES_PER_RUN,
}: {
  store: WireStore;
  bytesPerRun?: number;
}): RunTraffic {
  const bounds = { maxBytes: bytesPerRun, maxExchanges: MAX_CASSETTE_EXCHANGES };
  const writing = new Map<string, Promise<void>>();
  return {
    keep(runId, exchange) {
      const written = (writing.get(runId) ?? Promise.resolve())
        .then(() => store.keepTraffic({ runId, exchange, bounds }))
        .catch((error: unknown) => {
          console.error(
            `[loop-lab] run ${runId}: request ${exchange.n}'s traffic was not kept: ${(error as Error).message}`,
          );
        });
      writing.set(runId, written);
      void written.then(() => {
        if (writing.get(runId) === written) writing.delete(runId);
      });
    },
    settled: async (runId) => writing.get(runId),
  };
}
