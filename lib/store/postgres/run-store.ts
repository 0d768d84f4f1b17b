import { eventJson, trustedEventJson, type RunEvent } from '@/lib/protocol';
import type {
  AppendEventsOptions,
  ClaimedRun,
  CreateRunOptions,
  ForkSummary,
  ListRunsOptions,
  ReadEventBodiesOptions,
  ReadEventBodiesAtOptions,
  ReadEventsOptions,
  RowTotals,
  RunRecord,
  RunStore,
  RunSummary,
  StoredEventRow,
  TakenOverRun,
} from '../run-store';
import {
  claimedRun,
  closeRequest,
  interruptedTerminate,
  refusalOf,
  RUNNING_COLUMNS,
  takenOver,
  type CloseRequest,
  type RunningRow,
} from '../close-interrupted-runs';
import { isOwnerGone } from '../run-owner';
import { checkBatch, checkEncodedLog, type EncodedLog } from '../encoded-log';
import { summarizeEvents } from '../summarize-events';
import { SUMMARY_COLUMNS, type RunRow } from '../sqlite-run-statements';
import { newRunRows, storedConfig } from '../run-rows';
import { inTransaction, type PoolStoreOptions, type Queryable } from './pool';
import { insertEvents, summaryRows } from './run-rows';

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
}: PoolStoreOptions): RunStore & { closeAtOpen(keepResumable: boolean): Promise<string[]> } {
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
  }: CloseRequest & { keepResumable?: boolean }): Promise<string[]> => {
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
    async closeInterruptedRuns(request?: CloseRequest): Promise<string[]> {
      return closeInterrupted(closeRequest(request));
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
        if (taken) claimed.push(claimedRun(row, taken.lease));
      }
      return claimed;
    },
    async createRun(options: CreateRunOptions): Promise<void> {
      const { run, sweepRun } = newRunRows(options, owner);
      const { events, totals, log } = options;
      await inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO runs (id, created_at, config, imported, vendor, model, scenario, sweep_id, owner, forked_from, forked_at_turn, route)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '{"stops":[]}')`,
          [
            run.id,
            run.createdAt,
            run.config,
            run.imported,
            run.vendor,
            run.model,
            run.scenario,
            run.sweepId,
            run.owner,
            run.forkedFrom,
            run.forkedAtTurn,
          ],
        );
        if (events && events.length > 0 && totals) await append(client, run.id, events, totals);
        if (log && log.summary.count > 0) await appendEncoded(client, run.id, log);
        if (sweepRun)
          await client.query(
            'INSERT INTO sweep_runs (sweep_id, job, run_id, metrics) VALUES ($1, $2, $3, $4)',
            [sweepRun.sweepId, sweepRun.job, sweepRun.runId, sweepRun.metrics],
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
    async readEventBodiesAt({ runId, seqs }: ReadEventBodiesAtOptions): Promise<StoredEventRow[]> {
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
      return { summary: await summaryOf(pool, row), config: storedConfig(row) };
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
