import type { ForkLink, RunConfig, RunEvent, RunTotals, SweepRunMetrics } from '@/lib/protocol';
import type { ForkSummary, RunRecord, RunSummary } from '@/lib/protocol/http';
import type { EncodedLog } from './encoded-log';

export type { ForkSummary, RunRecord, RunStatus, RunSummary } from '@/lib/protocol/http';

/**
 * What the runs row keeps of a run's totals. A batch of events comes with the run's totals
 * after its last event, as the run's log folded them (lib/runtime/run-log.ts; an import folds
 * its whole log once): the store writes the row from them and never folds an event itself.
 */
export type RowTotals = Pick<RunTotals, 'inputTokens' | 'outputTokens' | 'usd'>;

/** A run cut off by a restart that a run registry took over to resume (lib/server/resume-runs.ts). */
export interface ClaimedRun {
  id: string;
  /** Its stored config, parsed (defaults added since it was stored filled in). */
  config: RunConfig;
  /** Was it a fork of another run? */
  forked: boolean;
  /** The claim's lease: the registry's writes to the run name it (AppendEventsOptions.lease). */
  lease: number;
}

/** A running run a queue worker took over to execute (RunStore.takeOverRun). */
export interface TakenOverRun {
  id: string;
  /** Its stored config, parsed; undefined when it no longer parses (`refusal` says why). */
  config: RunConfig | undefined;
  forked: boolean;
  /** How many of its events the store holds: 0 for a run no worker has started. */
  eventCount: number;
  /** Why its stored log could not be resumed from its config and seed (lib/protocol/restart.ts), if so. */
  refusal: string | undefined;
  /** This takeover's lease: every write the worker makes to the run names it (AppendEventsOptions.lease). */
  lease: number;
}

/**
 * The lease of a run just created: its creator holds it under this one until another process
 * claims or takes the run over, which raises the lease (RunStore.takeOverRun, claimInterruptedRuns).
 */
export const CREATED_LEASE = 0;

/**
 * A write refused because the run was claimed again after the writer's claim: another process
 * holds it now, and the writer must stop running it (nothing it writes will be kept).
 */
export class RunLeaseLost extends Error {
  constructor(
    readonly runId: string,
    readonly lease: number,
    readonly current: number,
  ) {
    super(
      `run ${runId}: another holder has taken it over (lease ${current}); this write under lease ${lease} was refused`,
    );
    this.name = 'RunLeaseLost';
  }
}

export type CreateRunOptions = CreateRunRecord &
  (CreateRunEvents | { events?: undefined; totals?: undefined });

/** A whole log written with the record in one transaction (an import is all or nothing). */
export interface CreateRunEvents {
  events: readonly RunEvent[];
  /** The run's totals after the last of them. */
  totals: RowTotals;
}

export interface CreateRunRecord {
  id: string;
  config: RunConfig;
  /** Epoch ms; defaults to now. */
  createdAt?: number;
  imported?: boolean;
  /** The log encoded where the run was made (lib/store/encoded-log.ts); instead of `events`. */
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
  /** The run's totals after the last of them (the batch's own and every earlier event's). */
  totals: RowTotals;
  /**
   * The claim this batch is written under (CREATED_LEASE, or what a claim or takeover returned):
   * once the run has been claimed again since, the batch is refused with RunLeaseLost and nothing
   * of it is stored. Without it, the batch is written whoever holds the run (an import, a sweep).
   */
  lease?: number;
}

export interface ReadEventBodiesAtOptions {
  runId: string;
  seqs: readonly number[];
}

export interface ReadEventsOptions {
  runId: string;
  /** Return events with seq greater than this (a resume point); omit for the whole log. */
  afterSeq?: number;
}

export interface ReadEventBodiesOptions extends ReadEventsOptions {
  /** At most this many rows (one page); the next page starts after the last seq returned. */
  limit: number;
}

/** One stored event as the store keeps it: its seq and its JSON, exactly as written. */
export interface StoredEventRow {
  seq: number;
  body: string;
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
  createRun(options: CreateRunOptions): Promise<void>;
  appendEvents(options: AppendEventsOptions): Promise<void>;
  /** Several runs' events in one transaction: all are stored or, when one batch fails, none. */
  appendEventBatches(batches: readonly AppendEventsOptions[]): Promise<void>;
  readEvents(options: ReadEventsOptions): Promise<RunEvent[]>;
  /**
   * One page of a log as stored, not parsed: at most `limit` rows with seq greater than
   * `afterSeq`, in seq order. For readers of long logs (eventPages), which hold a page at a time.
   */
  readEventBodies(options: ReadEventBodiesOptions): Promise<StoredEventRow[]>;
  /** The stored JSON of the events at these seqs (those that exist), in seq order. */
  readEventBodiesAt(options: ReadEventBodiesAtOptions): Promise<StoredEventRow[]>;
  getRun(id: string): Promise<RunRecord | undefined>;
  listRuns(options?: ListRunsOptions): Promise<RunSummary[]>;
  /** The runs forked from this one, oldest first. */
  listForks(runId: string): Promise<ForkSummary[]>;
  /**
   * Closes runs left `running` by a process that is gone with a `server_restart` terminate
   * (all of them, or the one named), its message saying why they were not resumed, or `why`;
   * runs of live processes are left alone. Done at open too (the server's store, opened with
   * `keepResumable`, leaves there the runs its registry can resume). A run named here is closed
   * even when this store opening wrote it: the caller (the run registry) names only runs it knows
   * are not live. With `lease`, the named run is closed only while that claim still holds it.
   */
  closeInterruptedRuns(options?: { runId?: string; why?: string; lease?: number }): Promise<string[]>;
  /**
   * Takes over the runs a gone process left running that can be resumed after a restart
   * (lib/protocol/restart.ts), for the run registry to resume (lib/server/resume-runs.ts).
   */
  claimInterruptedRuns(): Promise<ClaimedRun[]>;
  /**
   * Makes this store opening the owner of one running run, whoever owned it (a queue worker that
   * holds the run's job: lib/server/run-jobs.ts), under a new lease that refuses the writes of
   * every earlier holder; nothing when the run is not running.
   */
  takeOverRun(options: { runId: string }): Promise<TakenOverRun | undefined>;
  /** Whether the run is still held under this lease (no claim or takeover has come since). */
  holdsLease(options: { runId: string; lease: number }): Promise<boolean>;
  close(): Promise<void>;
}
