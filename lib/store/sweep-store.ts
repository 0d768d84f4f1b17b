import type { SweepGrid, SweepRunMetrics, SweepStatus, SweepSummary } from '@/lib/protocol';

export interface CreateSweepOptions {
  id: string;
  name: string;
  grid: SweepGrid;
  total: number;
  runner: SweepSummary['runner'];
  /** Epoch ms; defaults to now. */
  createdAt?: number;
  /** `queued` when it waits for the worker pool; defaults to running. */
  status?: 'queued' | 'running';
}

export interface UpdateSweepOptions {
  id: string;
  done: number;
  elapsedMs: number;
  status?: SweepStatus;
  message?: string;
  /** The endpoints' lines as the progress shows them (the newest, bounded by the caller); absent: kept as they are. */
  notes?: readonly string[];
  /** What the stored runs cost, as the sweep's cost ledger added them; absent: kept as it is. */
  spentUsd?: number;
}

/** A sweep closed because the process running it is gone. */
export interface ClosedSweep {
  id: string;
  runner: SweepSummary['runner'];
  /** Its stored runs. */
  done: number;
}

/** The message a sweep closed after its process died carries. */
export const INTERRUPTED_SWEEP_MESSAGE =
  'the process running this sweep stopped before it ended; its finished runs are kept';

export interface SweepRecord {
  summary: SweepSummary;
  grid: SweepGrid;
}

/**
 * Sweeps beside the runs they made: the grid and its progress here (what its stored runs spent,
 * its cap — the grid's `costCapUsd` — and its endpoints' lines among it); each run, its log and
 * its metrics row are written by the run store in one transaction per run.
 */
export interface SweepStore {
  createSweep(options: CreateSweepOptions): Promise<void>;
  updateSweep(options: UpdateSweepOptions): Promise<void>;
  getSweep(id: string): Promise<SweepRecord | undefined>;
  listSweeps(options?: { limit?: number }): Promise<SweepSummary[]>;
  /** Every stored run's metrics, in job order. */
  readSweepMetrics(id: string): Promise<SweepRunMetrics[]>;
  /**
   * Closes sweeps left running or queued by a process that is gone (the store does this when
   * it opens): each is marked failed with `done` set to its stored runs and `spent_usd` to what
   * they cost (its progress was written every half second: it lagged them). A sweep of another
   * live process on the same data folder is left alone. Returns the sweeps closed.
   */
  closeInterrupted(): Promise<ClosedSweep[]>;
  close(): Promise<void>;
}
