import type { SweepGrid, SweepRunMetrics, SweepStatus, SweepSummary } from '@/lib/protocol';

export interface CreateSweepOptions {
  id: string;
  name: string;
  grid: SweepGrid;
  total: number;
  runner: SweepSummary['runner'];
  /** Epoch ms; defaults to now. */
  createdAt?: number;
}

export interface UpdateSweepOptions {
  id: string;
  done: number;
  elapsedMs: number;
  status?: SweepStatus;
  message?: string;
}

export interface SweepRecord {
  summary: SweepSummary;
  grid: SweepGrid;
}

/**
 * Sweeps beside the runs they made (DESIGN.md §8): the grid and its progress here; each run,
 * its log and its metrics row are written by the run store in one transaction per run.
 */
export interface SweepStore {
  createSweep(options: CreateSweepOptions): void;
  updateSweep(options: UpdateSweepOptions): void;
  getSweep(id: string): SweepRecord | undefined;
  listSweeps(options?: { limit?: number }): SweepSummary[];
  /** Every stored run's metrics, in job order. */
  readSweepMetrics(id: string): SweepRunMetrics[];
  /** Marks sweeps a previous process left running as failed; returns how many. */
  closeInterrupted(message: string): number;
  close(): void;
}
