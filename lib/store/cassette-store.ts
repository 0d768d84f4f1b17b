import type { Cassette } from '@/lib/protocol';
import type { CassetteSummary } from '@/lib/protocol/http';

/** Saved and imported cassettes, beside the runs (the shipped ones are files in the repository, read by lib/server). */
export interface CassetteStore {
  saveCassette(options: { name: string; cassette: Cassette; fromRun?: string }): Promise<CassetteSummary>;
  getCassette(id: string): Promise<{ summary: CassetteSummary; cassette: Cassette } | undefined>;
  /** Newest first. */
  listCassettes(): Promise<CassetteSummary[]>;
  close(): Promise<void>;
}
