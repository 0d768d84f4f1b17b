import type pg from 'pg';
import {
  eventJson,
  RunConfigSchema,
  trustedEventJson,
  type RunEvent,
  type ScheduledSwap,
} from '@/lib/protocol';
import {
  RunLeaseLost,
  type AppendEventsOptions,
  type ClaimedRun,
  type CreateRunOptions,
  type ForkSummary,
  type ListRunsOptions,
  type ReadEventBodiesOptions,
  type ReadEventsOptions,
  type RowTotals,
  type RunRecord,
  type RunStore,
  type RunSummary,
  type StoredEventRow,
  type TakenOverRun,
} from '../run-store';
import {
  interruptedTerminate,
  refusalOf,
  RUNNING_COLUMNS,
  takenOver,
  type RunningRow,
} from '../close-interrupted-runs';
import { isOwnerGone } from '../run-owner';
import { checkBatch, checkEncodedLog, type EncodedLog } from '../encoded-log';
import { summarizeEvents, type SummaryDelta } from '../summarize-events';
import { ROUTE_EVENT_TYPES, SUMMARY_COLUMNS, type RunRow } from '../sqlite-run-statements';
import { toSummary } from '../sqlite-run-store';
import {
  foldRoute,
  NO_ROUTE,
  parseRoute,
  routeEventOf,
  type RouteEvent,
  type RouteState,
} from '../run-route';
import { inTransaction, type Queryable } from './pool';

/**
 * The run store on Postgres: the same rows, the same checks and the same messages as the SQLite
 * store (lib/store/sqlite-run-store.ts). Every write (a batch and its summary update, many runs'
 * batches, a run with its log) is one transaction on one pooled client; the summary update is
 * guarded by event_count = the batch's first seq, a compare-and-set that also holds between
 * processes, and (run_id, seq) is unique.
 */
export function createPostgresRunStore({
  pool,
  owner,
  release,
}: {
  pool: pg.Pool;
  /** This opening's owner id (lib/store/run-owner.ts), written on each run it creates. */
  owner: string;
  /** Called by close(): the pool is shared with the other stores (lib/store/postgres/index.ts). */
  release: () => Promise<void>;
}): RunStore & { closeAtOpen(keepResumable: boolean): Promise<string[]> } {
  const { summaryOf, updateRow } = summaryRows();

  const append = async (
    q: Queryable,
    runId: string,
    events: readonly RunEvent[],
    totals: RowTotals,
    lease?: number,
  ): Promise<void> => {
    await updateRow(q, runId, summarizeEvents(events, totals), lease);
    checkBatch(runId, events);
    await insertEvents(
      q,
      runId,
      events.map((e) => e.seq),
      events.map((e) => e.event),
      events.map((e) => e.ts),
      events.map(eventJson),
    );
  };

  /** A log encoded where it was made (a sweep worker): stored as its bytes are, nothing walked again. */
  const appendEncoded = async (q: Queryable, runId: string, log: EncodedLog): Promise<void> => {
    checkEncodedLog(runId, log);
    await updateRow(q, runId, log.summary);
    const first = log.summary.firstSeq;
    await insertEvents(
      q,
      runId,
      log.bodies.map((_, i) => first + i),
      log.types,
      log.ts,
      log.bodies,
    );
  };

  /** Closes interrupted runs (see RunStore.closeInterruptedRuns); each in its own transaction. */
  const closeInterrupted = async ({
    runId,
    why,
    lease,
    keepResumable = false,
  }: {
    runId?: string;
    why?: string;
    lease?: number;
    keepResumable?: boolean;
  }): Promise<string[]> => {
    const rows = (
      runId === undefined
        ? await pool.query<RunningRow>(`SELECT ${RUNNING_COLUMNS} FROM runs WHERE status = 'running'`)
        : await pool.query<RunningRow>(
            `SELECT ${RUNNING_COLUMNS} FROM runs WHERE status = 'running' AND id = $1`,
            [runId],
          )
    ).rows;
    const closed: string[] = [];
    for (const row of rows) {
      // A run named by the caller (the registry, which knows it is not live here) may be our own.
      const own = runId !== undefined && row.owner === owner;
      if (!own && !isOwnerGone({ owner: row.owner, self: owner })) continue;
      const refusal = refusalOf(row);
      if (keepResumable && refusal === undefined) continue;
      const done = await inTransaction(pool, async (client) => {
        // Another process opening the database at once may have closed or claimed it meanwhile:
        // the row, locked, must still be as it was read.
        const now = await client.query<RunningRow>(
          `SELECT ${RUNNING_COLUMNS} FROM runs WHERE id = $1 AND status = 'running' AND owner IS NOT DISTINCT FROM $2 FOR UPDATE`,
          [row.id, row.owner],
        );
        const current = now.rows[0];
        if (!current || current.event_count !== row.event_count) return false;
        const { events, totals } = interruptedTerminate(current, why, refusal);
        await append(client, row.id, events, totals, lease);
        return true;
      });
      if (done) closed.push(row.id);
    }
    return closed;
  };

  return {
    closeAtOpen: (keepResumable) => closeInterrupted({ keepResumable }),
    async closeInterruptedRuns({
      runId,
      why,
      lease,
    }: { runId?: string; why?: string; lease?: number } = {}): Promise<string[]> {
      return closeInterrupted({
        ...(runId !== undefined ? { runId } : {}),
        ...(why !== undefined ? { why } : {}),
        ...(lease !== undefined ? { lease } : {}),
      });
    },
    async takeOverRun({ runId }: { runId: string }): Promise<TakenOverRun | undefined> {
      // One statement: the row is read as it was taken, so no other opening's take comes between.
      const row = (
        await pool.query<RunningRow>(
          `UPDATE runs SET owner = $1, lease = lease + 1 WHERE id = $2 AND status = 'running' RETURNING ${RUNNING_COLUMNS}`,
          [owner, runId],
        )
      ).rows[0];
      return row ? takenOver(row) : undefined;
    },
    async holdsLease({ runId, lease }: { runId: string; lease: number }): Promise<boolean> {
      const row = (await pool.query<{ lease: number }>('SELECT lease FROM runs WHERE id = $1', [runId]))
        .rows[0];
      return row?.lease === lease;
    },
    async claimInterruptedRuns(): Promise<ClaimedRun[]> {
      const rows = (
        await pool.query<RunningRow>(`SELECT ${RUNNING_COLUMNS} FROM runs WHERE status = 'running'`)
      ).rows;
      const claimed: ClaimedRun[] = [];
      for (const row of rows) {
        if (!isOwnerGone({ owner: row.owner, self: owner }) || refusalOf(row) !== undefined) continue;
        // Compare-and-set: of two servers starting at once on one database, one takes the run.
        const taken = (
          await pool.query<{ lease: number }>(
            `UPDATE runs SET owner = $1, lease = lease + 1 WHERE id = $2 AND status = 'running' AND owner IS NOT DISTINCT FROM $3 RETURNING lease`,
            [owner, row.id, row.owner],
          )
        ).rows[0];
        if (!taken) continue;
        claimed.push({
          id: row.id,
          config: RunConfigSchema.parse(JSON.parse(row.config)),
          forked: row.forked_from !== null,
          lease: taken.lease,
        });
      }
      return claimed;
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
      await inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO runs (id, created_at, config, imported, vendor, model, scenario, sweep_id, owner, forked_from, forked_at_turn, route)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '{"stops":[]}')`,
          [
            id,
            createdAt,
            JSON.stringify(config),
            imported ? 1 : 0,
            config.provider.vendor,
            config.provider.model,
            config.scenario,
            sweep?.sweepId ?? null,
            owner,
            forkedFrom?.runId ?? null,
            forkedFrom?.turn ?? null,
          ],
        );
        if (events && events.length > 0 && totals) await append(client, id, events, totals);
        if (log && log.summary.count > 0) await appendEncoded(client, id, log);
        if (sweep)
          await client.query(
            'INSERT INTO sweep_runs (sweep_id, job, run_id, metrics) VALUES ($1, $2, $3, $4)',
            [sweep.sweepId, sweep.job, id, JSON.stringify(sweep.metrics)],
          );
      });
    },
    async listForks(runId: string): Promise<ForkSummary[]> {
      const rows = (
        await pool.query<RunRow & { forked_at_turn: number }>(
          `SELECT ${SUMMARY_COLUMNS}, forked_at_turn FROM runs WHERE forked_from = $1 ORDER BY created_at, rowid`,
          [runId],
        )
      ).rows;
      const forks: ForkSummary[] = [];
      for (const row of rows)
        forks.push({ ...(await summaryOf(pool, row)), forked_at_turn: row.forked_at_turn });
      return forks;
    },
    async appendEvents({ runId, events, totals, lease }: AppendEventsOptions): Promise<void> {
      if (events.length > 0)
        await inTransaction(pool, (client) => append(client, runId, events, totals, lease));
    },
    async appendEventBatches(batches: readonly AppendEventsOptions[]): Promise<void> {
      if (!batches.some((batch) => batch.events.length > 0)) return;
      // One commit for many live runs' batches: all are stored or, when one batch fails, none.
      await inTransaction(pool, async (client) => {
        for (const { runId, events, totals, lease } of batches)
          if (events.length > 0) await append(client, runId, events, totals, lease);
      });
    },
    async readEvents({ runId, afterSeq = -1 }: ReadEventsOptions): Promise<RunEvent[]> {
      const rows = (
        await pool.query<{ body: string }>(
          'SELECT body FROM events WHERE run_id = $1 AND seq > $2 ORDER BY seq',
          [runId, afterSeq],
        )
      ).rows;
      return rows.map((row) => trustedEventJson(row.body));
    },
    async readEventBodies({
      runId,
      afterSeq = -1,
      limit,
    }: ReadEventBodiesOptions): Promise<StoredEventRow[]> {
      return (
        await pool.query<StoredEventRow>(
          'SELECT seq, body FROM events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
          [runId, afterSeq, limit],
        )
      ).rows;
    },
    async readEventBodiesAt({
      runId,
      seqs,
    }: {
      runId: string;
      seqs: readonly number[];
    }): Promise<StoredEventRow[]> {
      if (seqs.length === 0) return [];
      return (
        await pool.query<StoredEventRow>(
          'SELECT seq, body FROM events WHERE run_id = $1 AND seq = ANY($2::integer[]) ORDER BY seq',
          [runId, seqs],
        )
      ).rows;
    },
    async getRun(id: string): Promise<RunRecord | undefined> {
      const row = (await pool.query<RunRow>(`SELECT ${SUMMARY_COLUMNS} FROM runs WHERE id = $1`, [id]))
        .rows[0];
      if (!row) return undefined;
      // Parsing fills defaults added to the schema since the run was stored.
      const config = RunConfigSchema.parse(JSON.parse(row.config));
      return { summary: await summaryOf(pool, row), config };
    },
    async listRuns({ limit = 200, sweepId }: ListRunsOptions = {}): Promise<RunSummary[]> {
      const rows = (
        sweepId === undefined
          ? await pool.query<RunRow>(
              `SELECT ${SUMMARY_COLUMNS} FROM runs WHERE sweep_id IS NULL ORDER BY created_at DESC, rowid DESC LIMIT $1`,
              [limit],
            )
          : await pool.query<RunRow>(
              `SELECT ${SUMMARY_COLUMNS} FROM runs WHERE sweep_id = $1 ORDER BY created_at DESC, rowid DESC LIMIT $2`,
              [sweepId, limit],
            )
      ).rows;
      const summaries: RunSummary[] = [];
      for (const row of rows) summaries.push(await summaryOf(pool, row));
      return summaries;
    },
    close: release,
  };
}

/** Inserts a batch's rows in one statement: one array per column, unnested. */
async function insertEvents(
  q: Queryable,
  runId: string,
  seqs: readonly number[],
  types: readonly string[],
  ts: readonly number[],
  bodies: readonly string[],
): Promise<void> {
  await q.query(
    `INSERT INTO events (run_id, seq, type, ts, body)
     SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::double precision[], $5::text[])`,
    [runId, seqs, types, ts, bodies],
  );
}

/** The summary row of each run, as lib/store/sqlite-run-store.ts keeps it: totals, status, route. */
function summaryRows() {
  /** A swap made by hand goes into the stored config as a scheduled swap, as the SQLite store does. */
  const recordSwaps = async (q: Queryable, runId: string, swaps: readonly ScheduledSwap[]): Promise<void> => {
    const row = (await q.query<{ config: string }>('SELECT config FROM runs WHERE id = $1', [runId])).rows[0];
    if (!row) return;
    const config = JSON.parse(row.config) as { swaps?: ScheduledSwap[] };
    // After the planned swaps of the same turn, as the run made them (a stable sort).
    config.swaps = [...(config.swaps ?? []), ...swaps].sort((a, b) => a.atTurn - b.atTurn);
    await q.query('UPDATE runs SET config = $1 WHERE id = $2', [JSON.stringify(config), runId]);
  };

  /** A run's route as stored; for a row without one, folded from its log's events (and kept). */
  const storedRoute = async (
    q: Queryable,
    runId: string,
    row: { route: string | null; vendor: string; model: string },
  ): Promise<RouteState> => {
    if (row.route !== null) return parseRoute(row.route);
    const bodies = (
      await q.query<{ body: string }>(
        `SELECT body FROM events WHERE run_id = $1 AND type IN ${ROUTE_EVENT_TYPES} ORDER BY seq`,
        [runId],
      )
    ).rows;
    const events = bodies
      .map((r) => routeEventOf(trustedEventJson(r.body)))
      .filter((e): e is RouteEvent => e !== undefined);
    const route = foldRoute(NO_ROUTE, events, { vendor: row.vendor, model: row.model });
    await q.query('UPDATE runs SET route = $1 WHERE id = $2', [JSON.stringify(route), runId]);
    return route;
  };
  const summaryOf = async (q: Queryable, row: RunRow): Promise<RunSummary> =>
    toSummary(row, await storedRoute(q, row.id, row));

  /** Adds a batch's share to the summary row, or says why the batch cannot follow the log. */
  const updateRow = async (
    q: Queryable,
    runId: string,
    { route, recordedSwaps, ...delta }: SummaryDelta,
    lease?: number,
  ): Promise<void> => {
    // Guarded by event_count = firstSeq: a batch that would leave a gap or repeat changes nothing;
    // and by the lease the batch names, if any: a holder the run was taken from changes nothing
    // (a takeover committed meanwhile is seen: Postgres checks the row again once it is unlocked).
    const changed = await q.query(
      `UPDATE runs SET
         event_count = event_count + $2,
         duration_ms = GREATEST(duration_ms, $3),
         iterations = iterations + $4,
         input_tokens = $5,
         output_tokens = $6,
         cost_usd = $7,
         vendor = COALESCE($8, vendor),
         model = COALESCE($9, model),
         scenario = COALESCE($10, scenario),
         status = COALESCE($11, status),
         terminate_reason = COALESCE($12, terminate_reason),
         complete = COALESCE($13, complete),
         verdict = COALESCE($14, verdict),
         title = COALESCE($15, title)
       WHERE id = $1 AND event_count = $16 AND ($17::integer IS NULL OR lease = $17)`,
      [
        runId,
        delta.count,
        delta.maxTs,
        delta.iterations,
        delta.inputTokens,
        delta.outputTokens,
        delta.usd,
        delta.vendor,
        delta.model,
        delta.scenario,
        delta.status,
        delta.reason,
        delta.complete === null ? null : delta.complete ? 1 : 0,
        delta.verdict,
        delta.title,
        delta.firstSeq,
        lease ?? null,
      ],
    );
    if (changed.rowCount === 0) {
      const state = (
        await q.query<{ event_count: number; lease: number }>(
          'SELECT event_count, lease FROM runs WHERE id = $1',
          [runId],
        )
      ).rows[0];
      if (!state) throw new Error(`run ${runId} does not exist in the store`);
      if (lease !== undefined && state.lease !== lease) throw new RunLeaseLost(runId, lease, state.lease);
      throw new Error(
        `run ${runId}: events must continue the log at seq ${state.event_count}, got seq ${delta.firstSeq}`,
      );
    }
    if (recordedSwaps.length > 0) await recordSwaps(q, runId, recordedSwaps);
    // Read after the summary update, so a run_start in the same batch has set the start vendor.
    if (route.length > 0) {
      const row = (
        await q.query<{ route: string | null; vendor: string; model: string }>(
          'SELECT route, vendor, model FROM runs WHERE id = $1',
          [runId],
        )
      ).rows[0]!;
      const folded = foldRoute(await storedRoute(q, runId, row), route, {
        vendor: row.vendor,
        model: row.model,
      });
      await q.query('UPDATE runs SET route = $1 WHERE id = $2', [JSON.stringify(folded), runId]);
    }
  };

  return { summaryOf, updateRow };
}
