import 'server-only';
import { randomUUID } from 'node:crypto';
import type { SweepGrid, SweepPairedComparison, SweepRow, SweepSummary } from '@/lib/protocol';
import type { RunStore, SweepStore } from '@/lib/store';
import { listCells } from '@/lib/sweeps/expand-grid';
import { failedJobs } from '@/lib/sweeps/rerun-failed';
import {
  createSweepRecord,
  executeSweep,
  type SweepCassettes,
  type SweepProgress,
} from '@/lib/sweeps/execute-sweep';
import { readPromptSets, type PromptSetReader } from '@/lib/sweeps/expand-grid';
import type { SweepJobRunner } from '@/lib/sweeps/local-pool';
import { pairedComparisons } from '@/lib/sweeps/paired-comparison';
import { resultsTable } from '@/lib/sweeps/results-table';
import { HttpError } from './http-error';
import {
  broadcast,
  createSweepLine,
  endAll,
  newLiveSweep,
  type LiveSweep,
  type SweepListener,
} from './sweep-line';

export type { SweepListener } from './sweep-line';

export interface SweepRegistry {
  /**
   * Runs the sweep now, or queues it behind the sweeps already here (status `queued`). `apiKeys`:
   * keys for its "request" endpoints, held in this process's memory until the sweep ends.
   */
  start(grid: SweepGrid, options?: { apiKeys?: Readonly<Record<string, string>> }): Promise<{ id: string }>;
  /** Rejects with HttpError 404 (unknown) or 409 (not running or queued in this process). */
  cancel(id: string): Promise<void>;
  /** Rejects with HttpError 404 for an unknown sweep; a finished one sends its last state and ends. */
  subscribe(id: string, listener: SweepListener): Promise<() => void>;
  /** The sweep with its table, from the store (finished runs only while it runs). */
  read(
    id: string,
  ): Promise<
    | { sweep: SweepSummary; grid: SweepGrid; rows: SweepRow[]; comparisons: SweepPairedComparison[] | null }
    | undefined
  >;
  /** Sweeps, newest first: the store's rows with this process's live state over them. */
  list(options?: { limit?: number }): Promise<SweepSummary[]>;
  /** Resolves when the sweep is over (at once if it is not running here). */
  whenFinished(id: string): Promise<void>;
  /** Resolves when the startup clean-up is done: how many queue jobs of dead sweeps it removed. */
  readonly started: Promise<{ removedJobs: number }>;
}

export interface SweepRegistryOptions {
  runStore: RunStore;
  sweepStore: SweepStore;
  /** The runner every sweep of this process shares; created when a sweep starts, closed when none is left. */
  createRunner: () => Promise<SweepJobRunner>;
  /** Where jobs will run (stored on the sweep before the runner exists). */
  runnerKind: SweepSummary['runner'];
  /**
   * Removes queued jobs of sweeps that are over (a queue outlives the process that fed it);
   * given whether a sweep id is one this store closed. Returns how many jobs it removed.
   */
  removeDeadJobs?: (isDead: (sweepId: string) => Promise<boolean>) => Promise<number>;
  /** Reads the prompt-set versions a grid's prompt axis names. */
  promptSets?: PromptSetReader;
  /** Where real runs' recordings are kept and found for a replay. */
  cassettes?: () => SweepCassettes;
}

/**
 * Sweeps of this process. They share one runner (one worker pool): one sweep runs at a time
 * and the others wait in order, each told its place and the sweep it waits for; the runner is
 * closed when no sweep is left, so the workers' memory and threads go back. Progress fans
 * out to SSE subscribers, and everything a reload needs is in the store. Sweeps a dead
 * process left open were closed when the store opened; their queue jobs are removed here.
 */
export function createSweepRegistry({
  runStore,
  sweepStore,
  createRunner,
  runnerKind,
  removeDeadJobs,
  promptSets,
  cassettes,
}: SweepRegistryOptions): SweepRegistry {
  const live = new Map<string, LiveSweep>();
  /** The last start: starts are taken one at a time, so each is queued or not by the line as it joins. */
  let starting: Promise<unknown> = Promise.resolve();
  // An ended sweep's runs no longer change: its paired comparisons (a bootstrap a metric a pair
  // of rows) are worked out once, keyed by sweep and run count, not on every read.
  const paired = new Map<string, { done: number; comparisons: SweepPairedComparison[] }>();
  const stored = (id: string): Promise<SweepProgress | undefined> => storedProgress(sweepStore, id);
  const end = (id: string, entry: LiveSweep): void => {
    live.delete(id);
    endAll(entry);
  };
  const line = createSweepLine({
    entryOf: (id) => live.get(id)!,
    end,
    createRunner,
    run: (id, entry, runner) =>
      runSweep(id, entry, {
        runStore,
        sweepStore,
        runner,
        ...(promptSets ? { promptSets } : {}),
        ...(cassettes ? { cassettes } : {}),
      }).catch((error: unknown) => {
        // Only the store failing while it records the sweep's end gets here: the sweep is over all the same.
        console.error(
          `[loop-lab] sweep ${id}: its end was not stored: ${error instanceof Error ? error.message : String(error)}`,
        );
      }),
  });

  const isDead = async (sweepId: string): Promise<boolean> => {
    if (live.has(sweepId)) return false;
    const status = (await sweepStore.getSweep(sweepId))?.summary.status;
    return status !== undefined && status !== 'running' && status !== 'queued';
  };
  const started = cleanUpDeadJobs(removeDeadJobs, isDead);

  return {
    started,

    async start(grid, options = {}) {
      const id = `sweep-${randomUUID().slice(0, 8)}`;
      const join = async (): Promise<void> => {
        await createSweepRecord({
          sweepStore,
          sweepId: id,
          grid,
          runner: runnerKind,
          status: line.busy() ? 'queued' : 'running',
        });
        live.set(id, newLiveSweep(grid, (await stored(id))!, options.apiKeys));
        line.join(id);
      };
      const joined = starting.then(join);
      starting = joined.catch(() => {});
      await joined;
      return { id };
    },

    async cancel(id) {
      const entry = live.get(id);
      if (!entry) {
        if (!(await sweepStore.getSweep(id))) throw new HttpError(404, `No sweep with id ${id}`);
        throw new HttpError(409, `Sweep ${id} is not running in this process`);
      }
      entry.cancel.abort();
      if (!line.leave(id)) return; // running: its jobs stop and executeSweep ends it
      try {
        await sweepStore.updateSweep({
          id,
          done: 0,
          elapsedMs: 0,
          status: 'cancelled',
          message: 'cancelled while it waited for the worker pool',
        });
        broadcast(entry, (await stored(id))!);
      } finally {
        end(id, entry);
        line.announce();
      }
    },

    async subscribe(id, listener) {
      const entry = live.get(id);
      if (!entry) {
        const last = await stored(id);
        if (!last) throw new HttpError(404, `No sweep with id ${id}`);
        listener.onProgress(last);
        listener.onEnd();
        return () => {};
      }
      // Nothing awaited from here: the listener joins before the sweep can end.
      listener.onProgress(entry.latest ?? entry.base);
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },

    async read(id) {
      const record = await sweepStore.getSweep(id);
      if (!record) return undefined;
      const latest = live.get(id)?.latest?.summary;
      const sweep = latest && latest.done >= record.summary.done ? latest : record.summary;
      const metrics = await sweepStore.readSweepMetrics(id);
      const rows = resultsTable({ cells: listCells(record.grid), metrics });
      // Paired only once the sweep has ended: while it runs, which seeds pair changes with every run.
      if (sweep.status === 'queued' || sweep.status === 'running')
        return { sweep, grid: record.grid, rows, comparisons: null };
      let known = paired.get(id);
      if (known?.done !== metrics.length) {
        known = { done: metrics.length, comparisons: pairedComparisons({ rows, metrics }) };
        paired.delete(id);
        paired.set(id, known);
        // The newest 50 sweeps read: an older one is worked out again if it is read again.
        if (paired.size > 50) paired.delete(paired.keys().next().value!);
      }
      return {
        sweep,
        grid: record.grid,
        rows,
        comparisons: known.comparisons,
        failed: failedJobs(record.grid, metrics),
      };
    },

    async list(options) {
      return (await sweepStore.listSweeps(options)).map((summary) => {
        const latest = live.get(summary.id)?.latest?.summary;
        return latest && latest.done >= summary.done ? latest : summary;
      });
    },

    async whenFinished(id) {
      await starting;
      await live.get(id)?.done;
    },
  };
}

/** A sweep's state as the store holds it (no rate or ETA: nothing runs it here). */
async function storedProgress(sweepStore: SweepStore, id: string): Promise<SweepProgress | undefined> {
  const record = await sweepStore.getSweep(id);
  return record ? { summary: record.summary, runsPerSec: 0, etaMs: null } : undefined;
}

/** Removes the queue jobs of sweeps that are over, once at startup; says how many. */
function cleanUpDeadJobs(
  removeDeadJobs: SweepRegistryOptions['removeDeadJobs'],
  isDead: (sweepId: string) => Promise<boolean>,
): Promise<{ removedJobs: number }> {
  return (removeDeadJobs ? removeDeadJobs(isDead) : Promise.resolve(0)).then(
    (removedJobs) => {
      if (removedJobs > 0)
        console.log(
          `[loop-lab] removed ${removedJobs} queued job${removedJobs === 1 ? '' : 's'} of sweeps that are over`,
        );
      return { removedJobs };
    },
    (error: unknown) => {
      console.error(
        `[loop-lab] could not remove the queue jobs of sweeps that are over: ${error instanceof Error ? error.message : String(error)}`,
      );
      return { removedJobs: 0 };
    },
  );
}

/** What running one sweep needs: the stores, the shared runner (created on first use) and the lookups. */
interface RunSweepDeps {
  runStore: RunStore;
  sweepStore: SweepStore;
  runner: () => Promise<SweepJobRunner>;
  promptSets?: PromptSetReader;
  cassettes?: () => SweepCassettes;
}

/** Runs one sweep to its end on the shared runner; a cancelled or failed one is stored so. */
async function runSweep(id: string, entry: LiveSweep, deps: RunSweepDeps): Promise<void> {
  const { runStore, sweepStore, promptSets, cassettes } = deps;
  try {
    if (entry.cancel.signal.aborted) throw new Error('cancelled before it started');
    await sweepStore.updateSweep({ id, done: 0, elapsedMs: 0, status: 'running' });
    broadcast(entry, (await storedProgress(sweepStore, id))!);
    const lookup = promptSets ? await readPromptSets(entry.grid, promptSets) : undefined;
    const runner = await deps.runner();
    await executeSweep({
      sweepId: id,
      grid: entry.grid,
      runner,
      runStore,
      sweepStore,
      signal: entry.cancel.signal,
      onProgress: (p) => broadcast(entry, p),
      created: true,
      ...(entry.apiKeys ? { apiKeys: entry.apiKeys } : {}),
      ...(lookup ? { promptSets: lookup } : {}),
      ...(cassettes ? { cassettes: cassettes() } : {}),
    });
  } catch (error) {
    const summary = (await sweepStore.getSweep(id))!.summary;
    if (entry.cancel.signal.aborted) {
      await sweepStore.updateSweep({
        id,
        done: summary.done,
        elapsedMs: summary.elapsed_ms,
        status: 'cancelled',
      });
    } else {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[loop-lab] sweep ${id} failed: ${message}`);
      await sweepStore.updateSweep({
        id,
        done: summary.done,
        elapsedMs: summary.elapsed_ms,
        status: 'failed',
        message,
      });
    }
    broadcast(entry, (await storedProgress(sweepStore, id))!);
  }
}
