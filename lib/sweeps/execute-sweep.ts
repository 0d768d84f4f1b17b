import { processEnv } from '@/lib/config/server-env';
import { countSweepJobs, type SweepGrid, type SweepRow, type SweepRunMetrics, type SweepStatus, type SweepSummary } from '@/lib/protocol';
import { createRedactor, runSecrets, type Redactor } from '@/lib/runtime/redact-secrets';
import type { RunStore, SweepStore } from '@/lib/store';
import { expandGrid, listCells } from './expand-grid';
import type { SweepJobRunner } from './local-pool';
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
  /** Removes secrets from the grid (default: every key in the server's environment). */
  redactor?: Redactor;
}

/** The environment's keys, as every stored run is redacted of them. */
function environmentRedactor(): Redactor {
  return createRedactor({ secrets: runSecrets({ env: processEnv() }) });
}

/**
 * The grid with every secret removed (a key pasted into its name, a label or a fault plan's
 * text). A sweep runs simulated vendors only, so no run needs a key from its grid: the grid is
 * redacted before its jobs are made, and neither the sweep's row, a queued job nor a stored
 * run's config or log ever holds one.
 */
export function redactGrid(grid: SweepGrid, redactor: Redactor = environmentRedactor()): SweepGrid {
  return redactor.empty ? grid : redactor.value(grid);
}

/** A sweep's title when its grid gives none. */
export function sweepName(grid: SweepGrid, total: number): string {
  return grid.name ?? `${grid.configurations.map((c) => c.id).join(' vs ')} · ${total} runs`;
}

/** Writes the sweep's row (status running, or queued behind other sweeps) before any job starts. */
export function createSweepRecord({
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
}): void {
  const grid = redactGrid(raw, redactor);
  const total = countSweepJobs(grid);
  sweepStore.createSweep({ id: sweepId, name: sweepName(grid, total), grid, total, runner, createdAt, status });
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
  const grid = redactGrid(options.grid, options.redactor);
  const now = options.now ?? (() => performance.now());
  const jobs = expandGrid(grid);
  const started = now();
  if (!options.created) createSweepRecord({ sweepStore, sweepId, grid, runner: runner.kind, ...(options.redactor ? { redactor: options.redactor } : {}) });
  const record = sweepStore.getSweep(sweepId)!.summary;
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
  });
  const progress = (s: SweepSummary): SweepProgress => {
    const since = firstAt === undefined ? 0 : now() - firstAt;
    const runsPerSec = s.done >= 2 && since > 0 ? ((s.done - 1) * 1000) / since : 0;
    return { summary: s, runsPerSec, etaMs: s.done > 0 && runsPerSec > 0 ? ((s.total - s.done) / runsPerSec) * 1000 : null };
  };

  const outcome = await runJobs({
    sweepId,
    jobs,
    runner,
    inFlight: 64,
    ...(signal ? { signal } : {}),
    onResult: (job, result) => {
      runStore.createRun({
        id: result.metrics.run_id,
        config: job.config,
        log: result.log,
        sweep: { sweepId, job: job.index, metrics: result.metrics },
      });
      metrics.push(result.metrics);
      firstAt ??= now();
      const s = summary('running');
      if (now() - lastPersist >= PERSIST_EVERY_MS) {
        lastPersist = now();
        sweepStore.updateSweep({ id: sweepId, done: s.done, elapsedMs: s.elapsed_ms });
      }
      onProgress?.(progress(s));
    },
  });

  const message = outcome.status === 'failed' ? outcome.message : undefined;
  const final = summary(outcome.status, message);
  sweepStore.updateSweep({ id: sweepId, done: final.done, elapsedMs: final.elapsed_ms, status: final.status, ...(message ? { message } : {}) });
  onProgress?.(progress(final));
  metrics.sort((a, b) => a.job - b.job);
  return { status: outcome.status, ...(message ? { message } : {}), rows: resultsTable({ cells: listCells(grid), metrics }), metrics };
}
