import { processEnv } from '@/lib/config/server-env';
import {
  countSweepJobs,
  type Cassette,
  type SweepGrid,
  type SweepRow,
  type SweepRunMetrics,
  type SweepStatus,
  type SweepSummary,
} from '@/lib/protocol';
import { createRedactor, runSecrets, type Redactor } from '@/lib/runtime/redact-secrets';
import type { RunStore, SweepStore } from '@/lib/store';
import { createCostLedger } from './cost-cap';
import { expandGrid, listCells, type PromptSetLookup, type SweepJob } from './expand-grid';
import type { SweepJobRunner } from './local-pool';
import { sweepRunId, type SweepJobInput } from './run-sweep-job';
import { resultsTable } from './results-table';
import { runJobs } from './run-jobs';

/** Progress as a person reads it: runs done of total, how fast, how long is left. */
export interface SweepProgress {
  summary: SweepSummary;
  runsPerSec: number;
  /** Wall ms left at the current rate; null until a run has finished. */
  etaMs: number | null;
}

export interface ExecuteSweepOptions {
  sweepId: string;
  grid: SweepGrid;
  runner: SweepJobRunner;
  runStore: RunStore;
  sweepStore: SweepStore;
  signal?: AbortSignal;
  /** Called after every stored run and at the end (throttling is the listener's business). */
  onProgress?: (progress: SweepProgress) => void;
  /** Wall clock for elapsed time and rate (a sweep's own runs use the virtual clock). */
  now?: () => number;
  /** The sweep's row was already created (createSweepRecord), so a reader finds it at once. */
  created?: boolean;
  /** Removes secrets from the grid (default: every key in the server's environment and the sweep's apiKeys). */
  redactor?: Redactor;
  /** Keys for the endpoints whose keySource is "request", by endpoint id: handed to their runs in memory, never stored. */
  apiKeys?: Readonly<Record<string, string>>;
  /** Reads the saved prompt-set versions the grid's prompt axis names. */
  promptSets?: PromptSetLookup;
  /** Where a real endpoint's recordings are kept, and found again for a sweep with replayFrom. */
  cassettes?: SweepCassettes;
}

/** A sweep's cassettes: each real run's recording saved under its run id, read back by run id. */
export interface SweepCassettes {
  save(runId: string, cassette: Cassette): Promise<void>;
  forRun(runId: string): Promise<{ id: string; cassette: Cassette } | undefined>;
}

/** How many endpoint lines a sweep's progress keeps (the newest). */
const KEPT_NOTES = 20;

/** The environment's keys (and the sweep's own), as every stored run is redacted of them. */
function environmentRedactor(apiKeys: Readonly<Record<string, string>> = {}): Redactor {
  return createRedactor({
    secrets: [
      ...runSecrets({ env: processEnv() }),
      ...Object.values(apiKeys).flatMap((apiKey) => runSecrets({ apiKey, env: {} })),
    ],
  });
}

/**
 * The grid with every secret removed (a key pasted into its name, a label or a fault plan's
 * text). No run needs a key from its grid (a sweep's keys travel beside it, in memory): the
 * grid is redacted before its jobs are made, and neither the sweep's row, a queued job nor a
 * stored run's config or log ever holds one.
 */
export function redactGrid(grid: SweepGrid, redactor: Redactor = environmentRedactor()): SweepGrid {
  return redactor.empty ? grid : redactor.value(grid);
}

/** A sweep's title when its grid gives none. */
export function sweepName(grid: SweepGrid, total: number): string {
  return grid.name ?? `${grid.configurations.map((c) => c.id).join(' vs ')} · ${total} runs`;
}

/** Writes the sweep's row (status running, or queued behind other sweeps) before any job starts. */
export async function createSweepRecord({
  sweepStore,
  sweepId,
  grid: raw,
  runner,
  createdAt = Date.now(),
  status = 'running',
  redactor,
}: {
  sweepStore: SweepStore;
  sweepId: string;
  grid: SweepGrid;
  runner: SweepSummary['runner'];
  createdAt?: number;
  status?: 'queued' | 'running';
  redactor?: Redactor;
}): Promise<void> {
  const grid = redactGrid(raw, redactor);
  const total = countSweepJobs(grid);
  await sweepStore.createSweep({
    id: sweepId,
    name: sweepName(grid, total),
    grid,
    total,
    runner,
    createdAt,
    status,
  });
}

export interface SweepOutcome {
  status: SweepStatus;
  message?: string;
  rows: SweepRow[];
  metrics: SweepRunMetrics[];
}

/** How often progress is written to the sweep row while it runs (a reload reads it). */
const PERSIST_EVERY_MS = 500;

/**
 * Runs a grid's jobs through a runner, stores each run with its log and metrics (one
 * transaction a run), keeps the sweep's row current, and returns the results table.
 * Used by the server's sweep registry and the CLI alike.
 */
export async function executeSweep(options: ExecuteSweepOptions): Promise<SweepOutcome> {
  const { sweepId, runner, runStore, sweepStore, signal, onProgress } = options;
  const apiKeys = options.apiKeys ?? {};
  const redactor = options.redactor ?? environmentRedactor(apiKeys);
  const grid = redactGrid(options.grid, redactor);
  const now = options.now ?? (() => performance.now());
  const jobs = expandGrid(grid, options.promptSets ? { promptSets: options.promptSets } : {});
  const ledger = createCostLedger(grid.costCapUsd);
  const notes: string[] = [];
  const started = now();
  if (!options.created)
    await createSweepRecord({
      sweepStore,
      sweepId,
      grid,
      runner: runner.kind,
      ...(options.redactor ? { redactor: options.redactor } : {}),
    });
  const record = (await sweepStore.getSweep(sweepId))!.summary;
  const createdAt = Date.parse(record.created_at);
  const name = record.name;

  const metrics: SweepRunMetrics[] = [];
  let lastPersist = started;
  // The rate is measured from the first finished run: workers loading the engine is not throughput.
  let firstAt: number | undefined;
  const summary = (status: SweepStatus, message?: string): SweepSummary => ({
    id: sweepId,
    name,
    created_at: new Date(createdAt).toISOString(),
    status,
    total: jobs.length,
    done: metrics.length,
    elapsed_ms: now() - started,
    runner: runner.kind,
    ...(message ? { message } : {}),
    ...(notes.length > 0 ? { notes: [...notes] } : {}),
    spent_usd: ledger.spentUsd,
    ...(grid.costCapUsd !== undefined ? { cost_cap_usd: grid.costCapUsd } : {}),
  });
  const progress = (s: SweepSummary): SweepProgress => {
    const since = firstAt === undefined ? 0 : now() - firstAt;
    const runsPerSec = s.done >= 2 && since > 0 ? ((s.done - 1) * 1000) / since : 0;
    return {
      summary: s,
      runsPerSec,
      etaMs: s.done > 0 && runsPerSec > 0 ? ((s.total - s.done) / runsPerSec) * 1000 : null,
    };
  };

  const inputOf = async (job: SweepJob): Promise<SweepJobInput> => {
    const endpoint = job.endpoint;
    const input: SweepJobInput = { sweepId, job };
    if (!endpoint) return input;
    if (grid.replayFrom !== undefined) {
      const recorded = await options.cassettes?.forRun(sweepRunId(grid.replayFrom, job.index));
      if (!recorded)
        throw new Error(
          `replayFrom: sweep ${grid.replayFrom} kept no cassette of its run ${job.index} (the same grid gives the same jobs; a run that sent nothing keeps none)`,
        );
      return { ...input, replay: recorded };
    }
    const apiKey = endpoint.keySource === 'request' ? apiKeys[endpoint.id] : undefined;
    return apiKey ? { ...input, apiKey } : input;
  };

  const outcome = await runJobs({
    sweepId,
    jobs,
    runner,
    inFlight: 64,
    ...(signal ? { signal } : {}),
    inputOf,
    admit: (job) => ledger.admit(job, jobs.length),
    onResult: async (job, result) => {
      if (result.cassette) await options.cassettes?.save(result.metrics.run_id, result.cassette);
      // The run is stored before the ledger counts its cost: what the sweep spent (shown live and
      // written to its row with its progress) is what its stored runs cost.
      await runStore.createRun({
        id: result.metrics.run_id,
        config: job.config,
        log: result.log,
        sweep: { sweepId, job: job.index, metrics: result.metrics },
      });
      // A run's cost is its own calls and its sub-agents': the cap bounds what the sweep spent, all of it.
      ledger.settle(job.index, result.metrics.usd + (result.metrics.subagent_usd ?? 0));
      for (const line of result.notes ?? []) {
        notes.push(redactor.text(line));
        if (notes.length > KEPT_NOTES) notes.shift();
      }
      metrics.push(result.metrics);
      firstAt ??= now();
      const s = summary('running');
      // A new endpoint line is written at once (a pause is rare and a reload must show it); progress every PERSIST_EVERY_MS.
      if ((result.notes?.length ?? 0) > 0 || now() - lastPersist >= PERSIST_EVERY_MS) {
        lastPersist = now();
        await sweepStore.updateSweep({
          id: sweepId,
          done: s.done,
          elapsedMs: s.elapsed_ms,
          spentUsd: ledger.spentUsd,
          ...(s.notes ? { notes: s.notes } : {}),
        });
      }
      onProgress?.(progress(s));
    },
  });

  const message = outcome.status === 'failed' || outcome.status === 'stopped' ? outcome.message : undefined;
  const final = summary(outcome.status, message);
  await sweepStore.updateSweep({
    id: sweepId,
    done: final.done,
    elapsedMs: final.elapsed_ms,
    status: final.status,
    spentUsd: ledger.spentUsd,
    ...(message ? { message } : {}),
    ...(final.notes ? { notes: final.notes } : {}),
  });
  onProgress?.(progress(final));
  metrics.sort((a, b) => a.job - b.job);
  return {
    status: outcome.status,
    ...(message ? { message } : {}),
    rows: resultsTable({ cells: listCells(grid), metrics }),
    metrics,
  };
}
