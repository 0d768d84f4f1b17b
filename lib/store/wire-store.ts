import type { StoredWire, WireExchange } from '@/lib/protocol';

/** Each run's wire (lib/protocol/wire.ts), beside its log: what its attempt cards show after a restart. */
export interface WireStore {
  /**
   * Keeps one request's wire; once the run's kept wire would pass `maxBytes` (MAX_WIRE_BYTES_PER_RUN
   * unless given), the request is kept by number only, with the reason.
   */
  keepWire(options: { runId: string; exchange: WireExchange; maxBytes?: number }): Promise<void>;
  /** The run's kept requests, by number (only request `n`, when given). */
  readWire(runId: string, n?: number): Promise<StoredWire[]>;
  close(): Promise<void>;
}
