import {
  RunConfigSchema,
  trustedEventJson,
  type RunConfig,
  type ScheduledSwap,
  type TaskVerdict,
  type TerminateReason,
} from '@/lib/protocol';
import { RunLeaseLost, type CreateRunOptions, type RunStatus, type RunSummary } from './run-store';
import { configColumns } from './config-columns';
import type { RunRow } from './sqlite-run-statements';
import type { SummaryDelta } from './summarize-events';
import { foldRoute, NO_ROUTE, routeEventOf, routeStops, type RouteEvent, type RouteState } from './run-route';

/**
 * The runs rows as both backends write and read them (lib/store/sqlite-run-store.ts and
 * lib/store/postgres/run-store.ts): what a new run's rows hold, a summary update's values, why a
 * batch was refused, and a row read back as the list and the run page show it.
 */

/** A runs row as the list and the run page show it. */
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

/** A run's stored config; parsing fills defaults added to the schema since the run was stored. */
export function storedConfig(row: { config: string }): RunConfig {
  return RunConfigSchema.parse(JSON.parse(row.config));
}

/**
 * The runs row a new run starts as (its route empty), and its sweep_runs row when it is a sweep's
 * run. Throws when the options give the log twice.
 */
export function newRunRows(
  { id, config, createdAt = Date.now(), imported = false, events, log, sweep, forkedFrom }: CreateRunOptions,
  owner: string,
) {
  if (log && events && events.length > 0)
    throw new Error(`run ${id}: give its log as events or as an encoded log, not both`);
  return {
    run: {
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
    },
    sweepRun: sweep
      ? { sweepId: sweep.sweepId, job: sweep.job, runId: id, metrics: JSON.stringify(sweep.metrics) }
      : undefined,
  };
}

/** The values of a batch's summary update (its route and recorded swaps are written apart). */
export function summaryUpdateValues(
  runId: string,
  delta: Omit<SummaryDelta, 'route' | 'recordedSwaps'>,
  lease: number | undefined,
) {
  return {
    id: runId,
    ...delta,
    complete: delta.complete === null ? null : delta.complete ? 1 : 0,
    lease: lease ?? null,
  };
}

/**
 * Why a batch's summary update changed nothing, from the row as it is now: the run is missing,
 * was claimed again since the batch's lease, or the batch does not continue its log.
 */
export function batchRefusal(
  runId: string,
  state: { event_count: number; lease: number } | undefined,
  lease: number | undefined,
  firstSeq: number,
): Error {
  if (!state) return new Error(`run ${runId} does not exist in the store`);
  if (lease !== undefined && state.lease !== lease) return new RunLeaseLost(runId, lease, state.lease);
  return new Error(
    `run ${runId}: events must continue the log at seq ${state.event_count}, got seq ${firstSeq}`,
  );
}

/**
 * A stored config with swaps made by hand added as scheduled swaps (their events'
 * `recorded_as`), so Re-run, Open in playground, compare and sweeps of this config make them
 * again; the config's other fields stay as stored.
 */
export function withRecordedSwaps(configJson: string, swaps: readonly ScheduledSwap[]): string {
  const config = JSON.parse(configJson) as { swaps?: ScheduledSwap[] };
  // After the planned swaps of the same turn, as the run made them (a stable sort).
  config.swaps = [...(config.swaps ?? []), ...swaps].sort((a, b) => a.atTurn - b.atTurn);
  return JSON.stringify(config);
}

/**
 * The route of a run stored before routes were kept, folded from its log's swaps, fallbacks and
 * fork start (the bodies of its ROUTE_EVENT_TYPES events, in seq order).
 */
export function routeFromLog(
  bodies: readonly { body: string }[],
  row: { vendor: string; model: string },
): RouteState {
  const events = bodies
    .map((r) => routeEventOf(trustedEventJson(r.body)))
    .filter((e): e is RouteEvent => e !== undefined);
  return foldRoute(NO_ROUTE, events, { vendor: row.vendor, model: row.model });
}

export type NewRunRows = ReturnType<typeof newRunRows>;
