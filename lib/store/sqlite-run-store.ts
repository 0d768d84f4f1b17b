import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  eventJson,
  RunConfigSchema,
  trustedEventJson,
  type RunEvent,
  type ScheduledSwap,
  type TaskVerdict,
  type TerminateReason,
} from '@/lib/protocol';
import {
  RunLeaseLost,
  type AppendEventsOptions,
  type ClaimedRun,
  type TakenOverRun,
  type CreateRunOptions,
  type ForkSummary,
  type ListRunsOptions,
  type ReadEventsOptions,
  type ReadEventBodiesOptions,
  type RowTotals,
  type RunRecord,
  type RunStatus,
  type RunStore,
  type RunSummary,
  type StoredEventRow,
} from './run-store';
import { claimInterruptedRuns, closeInterruptedRuns, takeOverRun } from './close-interrupted-runs';
import { createOwnerId } from './run-owner';
import { migrate } from './sqlite-schema';
import { checkBatch, checkEncodedLog, type EncodedLog } from './encoded-log';
import { summarizeEvents, type SummaryDelta } from './summarize-events';
import { configColumns } from './config-columns';
import { prepareRunStatements, type RunRow, type RunStatements } from './sqlite-run-statements';
import {
  foldRoute,
  NO_ROUTE,
  parseRoute,
  routeEventOf,
  routeStops,
  type RouteEvent,
  type RouteState,
} from './run-route';

export const DB_FILE_NAME = 'loop-lab.db';

/** A runs row as the list and the run page show it (the Postgres store reads the same row). */
export function toSummary(row: RunRow, route: RouteState): RunSummary {
  return {
    id: row.id,
    created_at: new Date(row.created_at).toISOString(),
    status: row.status as RunStatus,
    reason: row.terminate_reason as TerminateReason | null,
    complete: row.complete === null ? null : row.complete === 1,
    verdict: row.verdict as TaskVerdict | null,
    vendor: row.vendor,
    model: row.model,
    vendors: routeStops(route, { vendor: row.vendor, model: row.model }),
    scenario: row.scenario,
    title: row.title,
    ...configColumns(row.config),
    iterations: row.iterations,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    usd: row.cost_usd,
    duration_ms: row.duration_ms,
    event_count: row.event_count,
    imported: row.imported === 1,
  };
}

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
  const { append, appendBatches, create } = runWrites(db, s, owner, updateRow);

  // Runs a previous process left running are closed before anyone can list them (but those the
  // server's registry will resume).
  closeInterruptedRuns({ db, self: owner, append, keepResumable });

  return {
    async closeInterruptedRuns({
      runId,
      why,
      lease,
    }: { runId?: string; why?: string; lease?: number } = {}): Promise<string[]> {
      return closeInterruptedRuns({
        db,
        self: owner,
        append,
        ...(runId !== undefined ? { runId } : {}),
        ...(why !== undefined ? { why } : {}),
        ...(lease !== undefined ? { lease } : {}),
      });
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
    async createRun({
      id,
      config,
      createdAt = Date.now(),
      imported = false,
      events,
      totals,
      log,
      sweep,
      forkedFrom,
    }: CreateRunOptions): Promise<void> {
      if (log && events && events.length > 0)
        throw new Error(`run ${id}: give its log as events or as an encoded log, not both`);
      create(
        id,
        config,
        createdAt,
        imported,
        events ? { events, totals } : undefined,
        log,
        sweep,
        forkedFrom,
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
    async readEventBodiesAt({
      runId,
      seqs,
    }: {
      runId: string;
      seqs: readonly number[];
    }): Promise<StoredEventRow[]> {
      return seqs.length === 0 ? [] : s.selectEventsAt.all(runId, JSON.stringify(seqs));
    },
    async getRun(id: string): Promise<RunRecord | undefined> {
      const row = s.selectRun.get(id);
      if (!row) return undefined;
      // Parsing fills defaults added to the schema since the run was stored.
      const config = RunConfigSchema.parse(JSON.parse(row.config));
      return { summary: summaryOf(row), config };
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

/** Opens (and creates, when missing) the store's file in `dir`, in WAL mode, at the current schema. */
function openRunDb(dir: string): Database.Database {
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
  /**
   * A swap made by hand goes into the stored config as a scheduled swap (its event's
   * `recorded_as`), so Re-run, Open in playground, compare and sweeps of this config make it
   * again. Written in the batch's transaction; the config's other fields stay as stored.
   */
  const recordSwaps = (runId: string, swaps: readonly ScheduledSwap[]): void => {
    const row = s.selectConfig.get(runId);
    if (!row) return;
    const config = JSON.parse(row.config) as { swaps?: ScheduledSwap[] };
    // After the planned swaps of the same turn, as the run made them (a stable sort).
    config.swaps = [...(config.swaps ?? []), ...swaps].sort((a, b) => a.atTurn - b.atTurn);
    s.updateConfig.run(JSON.stringify(config), runId);
  };

  /**
   * A run's route as stored; for a run stored before routes were kept, folded from its log's
   * swaps, fallbacks and fork start (and kept, so it is folded once).
   */
  const storedRoute = (
    runId: string,
    row: { route: string | null; vendor: string; model: string },
  ): RouteState => {
    if (row.route !== null) return parseRoute(row.route);
    const events = s.selectRouteEvents
      .all(runId)
      .map((r) => routeEventOf(trustedEventJson(r.body)))
      .filter((e): e is RouteEvent => e !== undefined);
    const route = foldRoute(NO_ROUTE, events, { vendor: row.vendor, model: row.model });
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
    const changed = s.updateSummary.run({
      id: runId,
      ...delta,
      complete: delta.complete === null ? null : delta.complete ? 1 : 0,
      lease: lease ?? null,
    }).changes;
    if (changed === 0) {
      const state = s.selectRunState.get(runId);
      if (!state) throw new Error(`run ${runId} does not exist in the store`);
      if (lease !== undefined && state.lease !== lease) throw new RunLeaseLost(runId, lease, state.lease);
      throw new Error(
        `run ${runId}: events must continue the log at seq ${state.event_count}, got seq ${delta.firstSeq}`,
      );
    }
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
  owner: string,
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
      id: string,
      config: CreateRunOptions['config'],
      createdAt: number,
      imported: boolean,
      batch: { events: readonly RunEvent[]; totals: RowTotals } | undefined,
      log: EncodedLog | undefined,
      sweep: CreateRunOptions['sweep'],
      forkedFrom: CreateRunOptions['forkedFrom'],
    ) => {
      s.insertRun.run({
        id,
        createdAt,
        config: JSON.stringify(config),
        imported: imported ? 1 : 0,
        vendor: config.provider.vendor,
        model: config.provider.model,
        scenario: config.scenario,
        sweepId: sweep?.sweepId ?? null,
        owner,
        forkedFrom: forkedFrom?.runId ?? null,
        forkedAtTurn: forkedFrom?.turn ?? null,
      });
      if (batch && batch.events.length > 0) append(id, batch.events, batch.totals);
      if (log && log.summary.count > 0) appendEncoded(id, log);
      if (sweep)
        s.insertSweepRun.run({
          sweepId: sweep.sweepId,
          job: sweep.job,
          runId: id,
          metrics: JSON.stringify(sweep.metrics),
        });
    },
  );

  return { append, appendBatches, appendEncoded, create };
}
