import type { Database } from 'better-sqlite3';
import { terminateAfter, type RunEvent } from '@/lib/protocol';
import { isOwnerGone } from './run-owner';
import type { RowTotals } from './run-store';

interface RunningRow {
  id: string;
  owner: string | null;
  event_count: number;
  duration_ms: number;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
}

/**
 * Closes runs left `running` by a process that is gone (a crash, a SIGKILL, a restart): each
 * gets a terminate event (reason server_restart) right after the last event that was stored,
 * so no run stays `running` in the list or the API and every log ends with terminate.
 * Runs of a live process on the same data folder are left alone. Returns the ids closed.
 */
export function closeInterruptedRuns(options: {
  db: Database;
  self: string;
  append: (runId: string, events: readonly RunEvent[], totals: RowTotals) => void;
  runId?: string;
}): string[] {
  const { db, self } = options;
  const columns = 'id, owner, event_count, duration_ms, cost_usd, input_tokens, output_tokens';
  const rows =
    options.runId === undefined
      ? db.prepare<[], RunningRow>(`SELECT ${columns} FROM runs WHERE status = 'running'`).all()
      : db
          .prepare<[string], RunningRow>(`SELECT ${columns} FROM runs WHERE status = 'running' AND id = ?`)
          .all(options.runId);
  const closed: string[] = [];
  for (const row of rows) {
    // A run named by the caller (the registry, which knows it is not live here) may be our own.
    const own = options.runId !== undefined && row.owner === self;
    if (!own && !isOwnerGone({ owner: row.owner, self })) continue;
    // The summary row's totals: what the batches stored so far brought; the terminate states them.
    const totals = { inputTokens: row.input_tokens, outputTokens: row.output_tokens, usd: row.cost_usd };
    options.append(
      row.id,
      [
        // The last event stored: seq event_count - 1, at the run time the row was written at.
        terminateAfter(
          { seq: row.event_count - 1, ts: row.duration_ms },
          {
            runId: row.id,
            reason: 'server_restart',
            complete: false,
            message:
              `the server process stopped while this run was in flight; its log ends at the last event stored ` +
              `(${row.event_count} event${row.event_count === 1 ? '' : 's'}), and the run was closed when the server started again`,
            totals,
          },
        ),
      ],
      totals,
    );
    closed.push(row.id);
  }
  return closed;
}
