import type { ScheduledSwap } from '@/lib/protocol';
import type { RunSummary } from '../run-store';
import type { SummaryDelta } from '../summarize-events';
import { ROUTE_EVENT_TYPES, type RunRow } from '../sqlite-run-statements';
import { batchRefusal, routeFromLog, summaryUpdateValues, toSummary, withRecordedSwaps } from '../run-rows';
import { foldRoute, parseRoute, type RouteState } from '../run-route';
import type { Queryable } from './pool';

/** Inserts a batch's rows in one statement: one array per column, unnested. */
export async function insertEvents(
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
export function summaryRows() {
  /** A swap made by hand goes into the stored config as a scheduled swap, as the SQLite store does. */
  const recordSwaps = async (q: Queryable, runId: string, swaps: readonly ScheduledSwap[]): Promise<void> => {
    const row = (await q.query<{ config: string }>('SELECT config FROM runs WHERE id = $1', [runId])).rows[0];
    if (!row) return;
    await q.query('UPDATE runs SET config = $1 WHERE id = $2', [withRecordedSwaps(row.config, swaps), runId]);
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
    const route = routeFromLog(bodies, row);
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
    const v = summaryUpdateValues(runId, delta, lease);
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
        v.id,
        v.count,
        v.maxTs,
        v.iterations,
        v.inputTokens,
        v.outputTokens,
        v.usd,
        v.vendor,
        v.model,
        v.scenario,
        v.status,
        v.reason,
        v.complete,
        v.verdict,
        v.title,
        v.firstSeq,
        v.lease,
      ],
    );
    if (changed.rowCount === 0) {
      const state = (
        await q.query<{ event_count: number; lease: number }>(
          'SELECT event_count, lease FROM runs WHERE id = $1',
          [runId],
        )
      ).rows[0];
      throw batchRefusal(runId, state, lease, delta.firstSeq);
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
