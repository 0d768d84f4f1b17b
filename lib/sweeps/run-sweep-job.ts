import { loadStrategy } from '@/lib/runtime/load-strategy';
import {
  NO_TOTALS,
  type Cassette,
  type RunConfig,
  type RunEvent,
  type RunTotals,
  type SweepRunMetrics,
} from '@/lib/protocol';
import { buildCassette, createExchangeKeeper } from '@/lib/cassettes';
import { launchRun } from '@/lib/runtime/launch-run';
import { effectiveModel } from '@/lib/runtime/validate-config';
import { encodeLog, type EncodedLog } from '@/lib/store/encoded-log';
import type { SweepJob } from './expand-grid';
import { runMetrics } from '@/lib/metrics/run-metrics';
import { createMemoryGate, type EndpointGate } from './endpoint-gate';
import { gatedFetch } from './gated-fetch';

/**
 * What a worker sends back for one job: the run's metrics and its whole log, encoded in the
 * worker (each event's JSON and the summary row's share), so the thread that stores it only
 * writes rows: cloning ~130 event objects across threads cost the main thread about as much
 * as a worker's whole run of the engine leaves it time for.
 */
export interface SweepJobResult {
  metrics: SweepRunMetrics;
  log: EncodedLog;
  /** A real endpoint's run: its exchanges as a cassette (every key removed), so a rerun can replay it. */
  cassette?: Cassette;
  /** Lines for the sweep's progress: the endpoint pauses this run's requests caused. */
  notes?: string[];
}

/** One job as a runner is handed it. */
export interface SweepJobInput {
  sweepId: string;
  job: SweepJob;
  /**
   * The endpoint's key when the sweep was given one (keySource "request"): held in memory by the
   * process that runs the job, never queued, stored or logged (the run log redacts it).
   */
  apiKey?: string;
  /** Serve the run from this recording instead of the endpoint (a sweep with replayFrom). */
  replay?: { id: string; cassette: Cassette };
}

/** A run's id inside a sweep: the sweep's id and the job's place in the list. */
export function sweepRunId(sweepId: string, index: number): string {
  return `${sweepId}-${index}`;
}

/** The gate of this process when the caller gives none (a worker thread runs simulated jobs only). */
let processGate: EndpointGate | undefined;

/**
 * Runs one job to its terminate and reads its metrics. A simulated vendor's job is on the
 * virtual clock: pure apart from CPU, the same job gives the same result in any process. A real
 * endpoint's job goes through the endpoint's limiter (`gate`: one per process locally, Redis on
 * BullMQ) and its exchanges come back as a cassette; a replayed one is served from its cassette.
 */
export async function runSweepJob(
  input: SweepJobInput,
  context: { gate?: EndpointGate; signal?: AbortSignal } = {},
): Promise<SweepJobResult> {
  const { sweepId, job } = input;
  const runId = sweepRunId(sweepId, job.index);
  const events: RunEvent[] = [];
  // The run's totals after its last event, as its run log folded them: the runs row's.
  let totals: Readonly<RunTotals> = NO_TOTALS;
  const notes: string[] = [];
  const endpoint = job.endpoint;
  const config: RunConfig = input.replay
    ? { ...job.config, replay: { cassette: input.replay.id, offRecording: 'stop' } }
    : job.config;
  const record = endpoint && !input.replay ? createExchangeKeeper() : undefined;
  const gate = endpoint ? (context.gate ?? (processGate ??= createMemoryGate())) : undefined;
  // A sweep from the CLI may name a strategy of one's own: each job loads it (pinned by its hash).
  const strategy = config.strategy ? await loadStrategy(config.strategy) : undefined;
  const handle = launchRun({
    runId,
    config,
    ...(strategy ? { strategy } : {}),
    ...(input.apiKey ? { apiKey: input.apiKey } : {}),
    ...(input.replay ? { cassette: input.replay.cassette } : {}),
    ...(record ? { onExchange: record.keep } : {}),
    ...(endpoint && gate
      ? {
          gateNetwork: (fetch, run) =>
            gatedFetch(fetch, {
              gate,
              key: `${sweepId}:${endpoint.id}`,
              endpoint: endpoint.id,
              limits: {
                ...(endpoint.requestsPerMin ? { requestsPerMin: endpoint.requestsPerMin } : {}),
                ...(endpoint.tokensPerMin ? { tokensPerMin: endpoint.tokensPerMin } : {}),
              },
              clock: run.clock,
              note: run.note,
              onPause: (line) => notes.push(`${line} (run ${runId})`),
            }),
        }
      : {}),
    onEvent: (event, after) => {
      events.push(event);
      totals = after;
    },
  });
  const onAbort = (): void => handle.control({ action: 'abort' });
  context.signal?.addEventListener('abort', onAbort, { once: true });
  if (context.signal?.aborted) onAbort();
  await handle.done;
  context.signal?.removeEventListener('abort', onAbort);
  const m = runMetrics(events);
  const cassette =
    record && record.exchanges.length > 0
      ? buildCassette({
          exchanges: record.exchanges,
          vendor: config.provider.vendor,
          model: effectiveModel(config),
          note: `sweep ${sweepId}, run ${runId} (endpoint ${endpoint?.id})`,
          clock: 'real',
          config,
          truncated: record.truncated,
          recordedAt: new Date(),
        })
      : undefined;
  return {
    log: encodeLog(runId, events, totals),
    ...(cassette ? { cassette } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    metrics: {
      job: job.index,
      run_id: runId,
      key: job.key,
      seed: job.seed,
      complete: m.complete,
      reason: m.reason,
      verdict: m.verdict,
      ...(Object.keys(m.scorers).length > 0 ? { scorers: m.scorers } : {}),
      duration_ms: m.durationMs,
      input_tokens: m.inputTokens,
      output_tokens: m.outputTokens,
      usd: m.usd,
      attempts: m.attempts,
      failed_attempts: m.failedAttempts,
      wasted_tokens: m.wastedTokens,
      wasted_usd: m.wastedUsd,
      errors_seen: m.errorsSeen,
      ...(m.subagents.runs > 0
        ? {
            subagent_input_tokens: m.subagents.inputTokens,
            subagent_output_tokens: m.subagents.outputTokens,
            subagent_usd: m.subagents.usd,
          }
        : {}),
    },
  };
}
