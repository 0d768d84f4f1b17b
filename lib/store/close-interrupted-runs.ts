import type { Database } from 'better-sqlite3';
import { RunConfigSchema, restartRefusal, terminateAfter, type RunEvent } from '@/lib/protocol';
import { isOwnerGone } from './run-owner';
import type { ClaimedRun, RowTotals, TakenOverRun } from './run-store';

/** A running run's row, as closing or claiming it reads it (the Postgres store reads the same). */
export interface RunningRow {
  id: string;
  owner: string | null;
  config: string;
  forked_from: string | null;
  event_count: number;
  duration_ms: number;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  lease: number;
}

const COLUMNS =
  'id, owner, config, forked_from, event_count, duration_ms, cost_usd, input_tokens, output_tokens, lease';
export { COLUMNS as RUNNING_COLUMNS };

/** What RunStore.closeInterruptedRuns is asked: one run (`runId`), why, under which lease. */
export interface CloseRequest {
  runId?: string;
  why?: string;
  lease?: number;
}

/** A close request's options as given, and no others (nor any given as undefined). */
export function closeRequest({ runId, why, lease }: CloseRequest = {}): CloseRequest {
  return {
    ...(runId !== undefined ? { runId } : {}),
    ...(why !== undefined ? { why } : {}),
    ...(lease !== undefined ? { lease } : {}),
  };
}

/**
 * Closes runs left `running` by a process that is gone (a crash, a SIGKILL, a restart): each
 * gets a terminate event (reason server_restart) right after the last event that was stored,
 * so no run stays `running` in the list or the API and every log ends with terminate. The
 * message says why it was not resumed (lib/protocol/restart.ts), or is `why` when the caller
 * gives one (a whole sentence: what stopped, and why the run does not go on). With
 * `keepResumable`, a run that could be resumed is left running for a run registry to claim
 * (claimInterruptedRuns). Runs of a live process on the same data folder are left alone. A named
 * run with `lease` is closed under it: refused (RunLeaseLost) once another claim holds the run.
 * Returns the ids closed.
 */
export function closeInterruptedRuns(
  options: CloseRequest & {
    db: Database;
    self: string;
    append: (runId: string, events: readonly RunEvent[], totals: RowTotals, lease?: number) => void;
    keepResumable?: boolean;
  },
): string[] {
  const { db, self } = options;
  const rows =
    options.runId === undefined
      ? db.prepare<[], RunningRow>(`SELECT ${COLUMNS} FROM runs WHERE status = 'running'`).all()
      : db
          .prepare<[string], RunningRow>(`SELECT ${COLUMNS} FROM runs WHERE status = 'running' AND id = ?`)
          .all(options.runId);
  const closed: string[] = [];
  for (const row of rows) {
    // A run named by the caller (the registry, which knows it is not live here) may be our own.
    const own = options.runId !== undefined && row.owner === self;
    if (!own && !isOwnerGone({ owner: row.owner, self })) continue;
    const refusal = refusalOf(row);
    if (options.keepResumable && refusal === undefined) continue;
    const { events, totals } = interruptedTerminate(row, options.why, refusal);
    options.append(row.id, events, totals, options.lease);
    closed.push(row.id);
  }
  return closed;
}

/**
 * The terminate that closes an interrupted run (reason server_restart) right after its last
 * stored event, with the row's totals. Its message is the caller's `why` when there is one (a
 * sentence saying what stopped and why the run does not go on: a worker's job that failed, a
 * keyed run whose web instance is gone, a re-execution that diverged); otherwise the server
 * restart that found it, and why it was not resumed.
 */
export function interruptedTerminate(
  row: RunningRow,
  why: string | undefined,
  refusal: string | undefined,
): { events: RunEvent[]; totals: RowTotals } {
  // The summary row's totals: what the batches stored so far brought; the terminate states them.
  const totals = { inputTokens: row.input_tokens, outputTokens: row.output_tokens, usd: row.cost_usd };
  const stored = `${row.event_count} event${row.event_count === 1 ? '' : 's'}`;
  return {
    events: [
      // The last event stored: seq event_count - 1, at the run time the row was written at.
      terminateAfter(
        { seq: row.event_count - 1, ts: row.duration_ms },
        {
          runId: row.id,
          reason: 'server_restart',
          complete: false,
          message:
            why !== undefined
              ? `${why}; its log ends at the last event stored (${stored})`
              : `the server process stopped while this run was in flight; its log ends at the last event stored ` +
                `(${stored}), and the run was closed when the server started again` +
                (refusal !== undefined ? `, not resumed: ${refusal}` : ''),
          totals,
        },
      ),
    ],
    totals,
  };
}

/**
 * Takes over the runs left `running` by a process that is gone and that can be resumed: each
 * becomes this store opening's (so no other server on the data folder takes it too, and none
 * closes it as interrupted while it runs here), under a new lease. Returns them for the registry
 * to resume.
 */
export function claimInterruptedRuns(options: { db: Database; self: string }): ClaimedRun[] {
  const { db, self } = options;
  const rows = db.prepare<[], RunningRow>(`SELECT ${COLUMNS} FROM runs WHERE status = 'running'`).all();
  const claim = db.prepare<[string, string, string | null], { lease: number }>(
    `UPDATE runs SET owner = ?, lease = lease + 1 WHERE id = ? AND status = 'running' AND owner IS ? RETURNING lease`,
  );
  const claimed: ClaimedRun[] = [];
  for (const row of rows) {
    if (!isOwnerGone({ owner: row.owner, self }) || refusalOf(row) !== undefined) continue;
    // Compare-and-set: of two servers starting at once on one data folder, one takes the run.
    const taken = claim.get(self, row.id, row.owner);
    if (taken) claimed.push(claimedRun(row, taken.lease));
  }
  return claimed;
}

/**
 * Takes over one run still `running`, whoever wrote it last: a worker that holds the run's job
 * (lib/server/run-jobs.ts) is its one executor, since the queue hands a job to one worker at a
 * time and to another only once the first stopped renewing its lock. The lease is raised, so a
 * holder that stalled past its lock and wakes finds its writes refused. Returns the run with how
 * many events the store holds, its new lease and, when it cannot be resumed, why; nothing when it
 * has ended.
 */
export function takeOverRun(options: {
  db: Database;
  self: string;
  runId: string;
}): TakenOverRun | undefined {
  const { db, self, runId } = options;
  // One statement: the row is read as it was taken, so no other opening's take comes between.
  const row = db
    .prepare<[string, string], RunningRow>(
      `UPDATE runs SET owner = ?, lease = lease + 1 WHERE id = ? AND status = 'running' RETURNING ${COLUMNS}`,
    )
    .get(self, runId);
  if (!row) return undefined;
  return takenOver(row);
}

/** A claimed run as the registry resumes it, under the lease the claim raised the row to. */
export function claimedRun(row: RunningRow, lease: number): ClaimedRun {
  return {
    id: row.id,
    config: RunConfigSchema.parse(JSON.parse(row.config)),
    forked: row.forked_from !== null,
    lease,
  };
}

/** What a takeover hands the worker: the run as the store holds it, under the row's new lease. */
export function takenOver(row: RunningRow): TakenOverRun {
  const parsed = RunConfigSchema.safeParse(JSON.parse(row.config));
  return {
    id: row.id,
    config: parsed.success ? parsed.data : undefined,
    forked: row.forked_from !== null,
    eventCount: row.event_count,
    refusal: refusalOf(row),
    lease: row.lease,
  };
}

/** Why the row's run cannot be resumed (a config stored before a field existed is parsed with its defaults). */
export function refusalOf(row: RunningRow): string | undefined {
  const parsed = RunConfigSchema.safeParse(JSON.parse(row.config));
  if (!parsed.success)
    return `its stored config no longer parses (${parsed.error.issues[0]?.message ?? 'invalid'})`;
  return restartRefusal(parsed.data, { forked: row.forked_from !== null });
}
