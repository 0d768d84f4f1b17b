import type { ForkLink, RunConfig, RunEvent, SweepRunMetrics } from '@/lib/protocol';
import type { ForkSummary, RunRecord, RunSummary } from '@/lib/protocol/http';
import type { EncodedLog } from './encoded-log';

export type { ForkSummary, RunRecord, RunStatus, RunSummary } from '@/lib/protocol/http';

export interface CreateRunOptions {
  id: string;
  config: RunConfig;
  /** Epoch ms; defaults to now. */
  createdAt?: number;
  imported?: boolean;
  /** A whole log written with the record in one transaction (an import is all or nothing). */
  events?: readonly RunEvent[];
  /** The same, encoded where the run was made (lib/store/encoded-log.ts); instead of `events`. */
  log?: EncodedLog;
  /** A sweep's run: its sweep, its job and its metrics row, written in the same transaction. */
  sweep?: { sweepId: string; job: number; metrics: SweepRunMetrics };
  /** A fork: the run and turn it started from (listed by `listForks` of the parent). */
  forkedFrom?: ForkLink;
}

export interface AppendEventsOptions {
  runId: string;
  /** Events in seq order; the first must follow the last stored one (no gap, no repeat). */
  events: readonly RunEvent[];
}

export interface ReadEventsOptions {
  runId: string;
  /** Return events with seq greater than this (a resume point); omit for the whole log. */
  afterSeq?: number;
}

export interface ListRunsOptions {
  /** Newest first; at most this many (default 200). */
  limit?: number;
  /** Only this sweep's runs; without it, sweep runs are left out (they have their own page). */
  sweepId?: string;
}

/**
 * The run store: a run is its config plus its event log. Small on
 * purpose, so a server database can stand behind it when one machine is not enough.
 */
export interface RunStore {
  createRun(options: CreateRunOptions): void;
  appendEvents(options: AppendEventsOptions): void;
  /** Several runs' events in one transaction: all are stored or, when one batch fails, none. */
  appendEventBatches(batches: readonly AppendEventsOptions[]): void;
  readEvents(options: ReadEventsOptions): RunEvent[];
  getRun(id: string): RunRecord | undefined;
  listRuns(options?: ListRunsOptions): RunSummary[];
  /** The runs forked from this one, oldest first. */
  listForks(runId: string): ForkSummary[];
  /**
   * Closes runs left `running` by a process that is gone with a `server_restart` terminate
   * (all of them, or the one named); runs of live processes are left alone. Done at open too.
   * A run named here is closed even when this store opening wrote it: the caller (the run
   * registry) names only runs it knows are not live.
   */
  closeInterruptedRuns(options?: { runId?: string }): string[];
  close(): void;
}
