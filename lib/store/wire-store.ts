import type { CassetteExchange, StoredWire, WireExchange } from '@/lib/protocol';
import type { TrafficBounds } from './traffic-rows';

/**
 * Each run's wire (lib/protocol/wire.ts), beside its log: what its attempt cards show after a
 * restart. And each run's model traffic as a cassette records it (beneath the fault wrapper, a few
 * headers, no key): what "Save as cassette" saves, whichever process executed the run.
 */
export interface WireStore {
  /**
   * Keeps one request's wire; once the run's kept wire would pass `maxBytes` (MAX_WIRE_BYTES_PER_RUN
   * unless given), the request is kept by number only, with the reason.
   */
  keepWire(options: { runId: string; exchange: WireExchange; maxBytes?: number }): Promise<void>;
  /** The run's kept requests, by number (only request `n`, when given). */
  readWire(runId: string, n?: number): Promise<StoredWire[]>;
  /**
   * Keeps one exchange of the run's traffic, already redacted with the run's keys; once the run's
   * kept traffic would pass `bounds`, that request and every later one is kept by number only.
   */
  keepTraffic(options: { runId: string; exchange: CassetteExchange; bounds: TrafficBounds }): Promise<void>;
  /** The run's kept traffic in request order, and whether it was cut at its bounds. */
  readTraffic(runId: string): Promise<{ exchanges: CassetteExchange[]; truncated: boolean }>;
  close(): Promise<void>;
}
