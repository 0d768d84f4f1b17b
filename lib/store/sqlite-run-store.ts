import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { eventJson, trustedEventJson, type RunEvent, type ScheduledSwap } from '@/lib/protocol';
import {
  type AppendEventsOptions,
  type ClaimedRun,
  type TakenOverRun,
  type CreateRunOptions,
  type ForkSummary,
  type ListRunsOptions,
  type ReadEventsOptions,
  type ReadEventBodiesOptions,
  type ReadEventBodiesAtOptions,
  type RowTotals,
  type RunRecord,
  type RunStore,
  type RunSummary,
  type StoredEventRow,
} from './run-store';
import {
  claimInterruptedRuns,
  closeInterruptedRuns,
  closeRequest,
  takeOverRun,
  type CloseRequest,
} from './close-interrupted-runs';
import { createOwnerId } from './run-owner';
import { migrate } from './sqlite-schema';
import { checkBatch, checkEncodedLog, type EncodedLog } from './encoded-log';
import { summarizeEvents, type SummaryDelta } from './summarize-events';
import { prepareRunStatements, type RunRow, type RunStatements } from './sqlite-run-statements';
import { foldRoute, parseRoute, type RouteState } from './run-route';
import {
  batchRefusal,
  newRunRows,
  routeFromLog,
  storedConfig,
  summaryUpdateValues,
  toSummary,
  withRecordedSwaps,
  type NewRunRows,
} from './run-rows';

export const DB_FILE_NAME = 'loop-lab.db';

export interface SqliteRunStoreOptions {
  /** The data folder; created when missing. The file inside is DB_FILE_NAME. */
  dir: string;
  /**
   * The server's store: runs a gone process left running that can be resumed are left for its
   * run registry to claim and resume (lib/server/resume-runs.ts) rather than closed at open.
   */
  keepResumable?: boolean;
}

/**
 * The embedded run store: one SQLite file in WAL mode (readers never block the writer),
 * prepared statements, each append batch in one transaction with its summary update.
 */
export function createSqliteRunStore({ dir, keepResumable = false }: SqliteRunStoreOptions): RunStore {
  const db = openRunDb(dir);
  const owner = createOwnerId();

  const s = prepareRunStatements(db);
  const { summaryOf, updateRow } = summaryRows(s);
  const { append, appendBatches, create } = runWrites(db, s, updateRow);

  // Runs a previous process left running are closed before anyone can list them (but those the
  // server's registry will resume).
  closeInterruptedRuns({ db, self: owner, append, keepResumable });

  return {
    async closeInterruptedRuns(request?: CloseRequest): Promise<string[]> {
      return closeInterruptedRuns({ db, self: owner, append, ...closeRequest(request) });
    },
    async claimInterruptedRuns(): Promise<ClaimedRun[]> {
      return claimInterruptedRuns({ db, self: owner });
    },
    async takeOverRun({ runId }: { runId: string }): Promise<TakenOverRun | undefined> {
      return takeOverRun({ db, self: owner, runId });
    },
    async holdsLease({ runId, lease }: { runId: string; lease: number }): Promise<boolean> {
      return s.selectRunState.get(runId)?.lease === lease;
    },
    async createRun(options: CreateRunOptions): Promise<void> {
      const { run, sweepRun } = newRunRows(options, owner);
      create(
        run,
        options.events ? { events: options.events, totals: options.totals } : undefined,
        options.log,
        sweepRun,
      );
    },
    async listForks(runId: string): Promise<ForkSummary[]> {
      return s.selectForks
        .all(runId)
        .map((row) => ({ ...summaryOf(row), forked_at_turn: row.forked_at_turn }));
    },
    async appendEvents({ runId, events, totals, lease }: AppendEventsOptions): Promise<void> {
      if (events.length > 0) append(runId, events, totals, lease);
    },
    async appendEventBatches(batches: readonly AppendEventsOptions[]): Promise<void> {
      if (batches.some((batch) => batch.events.length > 0)) appendBatches(batches);
    },
    async readEvents({ runId, afterSeq = -1 }: ReadEventsOptions): Promise<RunEvent[]> {
      return s.selectEvents.all(runId, afterSeq).map((row) => trustedEventJson(row.body));
    },
    async readEventBodies({
      runId,
      afterSeq = -1,
      limit,
    }: ReadEventBodiesOptions): Promise<StoredEventRow[]> {
      return s.selectEventPage.all(runId, afterSeq, limit);
    },
    async readEventBodiesAt({ runId, seqs }: ReadEventBodiesAtOptions): Promise<StoredEventRow[]> {
      return seqs.length === 0 ? [] : s.selectEventsAt.all(runId, JSON.stringify(seqs));
    },
    async getRun(id: string): Promise<RunRecord | undefined> {
      const row = s.selectRun.get(id);
      if (!row) return undefined;
      return { summary: summaryOf(row), config: storedConfig(row) };
    },
    async listRuns({ limit = 200, sweepId }: ListRunsOptions = {}): Promise<RunSummary[]> {
      return (sweepId === undefined ? s.selectRuns.all(limit) : s.selectSweepRuns.all(sweepId, limit)).map(
        summaryOf,
      );
    },
    async close(): Promise<void> {
      db.close();
    },
  };
}

/**
 * Opens (and creates, when missing) the store's file in `dir`, in WAL mode, at the current schema:
 * the run store's connection, and the sweep store's (lib/store/sqlite-sweep-store.ts).
 */
export function openRunDb(dir: string): Database.Database {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/**
 * The summary row of each run: its totals and status as batches add them, its route, its summary
 * read back.
 */
function summaryRows(s: RunStatements) {
  /** A swap made by hand goes into the stored config, in the batch's transaction. */
  const recordSwaps = (runId: string, swaps: readonly ScheduledSwap[]): void => {
    const row = s.selectConfig.get(runId);
    if (row) s.updateConfig.run(withRecordedSwaps(row.config, swaps), runId);
  };

  /** A run's route as stored; for a run stored before routes were kept, folded from its log (and kept). */
  const storedRoute = (
    runId: string,
    row: { route: string | null; vendor: string; model: string },
  ): RouteState => {
    if (row.route !== null) return parseRoute(row.route);
    const route = routeFromLog(s.selectRouteEvents.all(runId), row);
    s.updateRoute.run(JSON.stringify(route), runId);
    return route;
  };
  const summaryOf = (row: RunRow): RunSummary => toSummary(row, storedRoute(row.id, row));

  /** Adds a batch's share to the summary row, or says why the batch cannot follow the log. */
  const updateRow = (
    runId: string,
    { route, recordedSwaps, ...delta }: SummaryDelta,
    lease?: number,
  ): void => {
    if (s.updateSummary.run(summaryUpdateValues(runId, delta, lease)).changes === 0)
      throw batchRefusal(runId, s.selectRunState.get(runId), lease, delta.firstSeq);
    if (recordedSwaps.length > 0) recordSwaps(runId, recordedSwaps);
    // Read after the summary update, so a run_start in the same batch has set the start vendor.
    if (route.length > 0) {
      const row = s.selectRouteRow.get(runId)!;
      s.updateRoute.run(
        JSON.stringify(foldRoute(storedRoute(runId, row), route, { vendor: row.vendor, model: row.model })),
        runId,
      );
    }
  };

  return { summaryOf, updateRow };
}

/**
 * The run store's writes: each append batch in one transaction with its summary update, many
 * runs' batches in one, a log encoded elsewhere stored as its bytes are, a new run with its log.
 */
function runWrites(
  db: Database.Database,
  s: RunStatements,
  updateRow: (runId: string, delta: SummaryDelta, lease?: number) => void,
) {
  const append = db.transaction(
    (runId: string, events: readonly RunEvent[], totals: RowTotals, lease?: number) => {
      updateRow(runId, summarizeEvents(events, totals), lease);
      checkBatch(runId, events);
      for (const event of events)
        s.insertEvent.run(runId, event.seq, event.event, event.ts, eventJson(event));
    },
  );

  // One commit for many live runs' batches: a commit costs more than the rows it writes.
  const appendBatches = db.transaction((batches: readonly AppendEventsOptions[]) => {
    for (const { runId, events, totals, lease } of batches)
      if (events.length > 0) append(runId, events, totals, lease);
  });

  /** A log encoded where it was made (a sweep worker): stored as its bytes are, nothing walked again. */
  const appendEncoded = (runId: string, log: EncodedLog): void => {
    checkEncodedLog(runId, log);
    updateRow(runId, log.summary);
    const { bodies, types, ts } = log;
    const first = log.summary.firstSeq;
    for (let i = 0; i < bodies.length; i += 1)
      s.insertEvent.run(runId, first + i, types[i]!, ts[i]!, bodies[i]!);
  };

  const create = db.transaction(
    (
      run: NewRunRows['run'],
      batch: { events: readonly RunEvent[]; totals: RowTotals } | undefined,
      log: EncodedLog | undefined,
      sweepRun: NewRunRows['sweepRun'],
    ) => {
      s.insertRun.run(run);
      if (batch && batch.events.length > 0) append(run.id, batch.events, batch.totals);
      if (log && log.summary.count > 0) appendEncoded(run.id, log);
      if (sweepRun) s.insertSweepRun.run(sweepRun);
    },
  );

  return { append, appendBatches, appendEncoded, create };
}
