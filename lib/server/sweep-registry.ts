import 'server-only';
import { randomUUID } from 'node:crypto';
import type { SweepGrid, SweepRow, SweepSummary } from '@/lib/protocol';
import type { RunStore, SweepStore } from '@/lib/store';
import { listCells } from '@/lib/sweeps/expand-grid';
import { createSweepRecord, executeSweep, type SweepProgress } from '@/lib/sweeps/execute-sweep';
import type { SweepJobRunner } from '@/lib/sweeps/local-pool';
import { resultsTable } from '@/lib/sweeps/results-table';
import { HttpError } from './http-error';

/** Receives a sweep's progress (the current state at once, then changes), then onEnd once. */
export interface SweepListener {
  onProgress(progress: SweepProgress): void;
  onEnd(): void;
}

export interface SweepRegistry {
  start(grid: SweepGrid): { id: string };
  /** Throws HttpError 404 (unknown) or 409 (not running in this process). */
  cancel(id: string): void;
  /** Throws HttpError 404 for an unknown sweep; a finished one sends its last state and ends. */
  subscribe(id: string, listener: SweepListener): () => void;
  /** The sweep with its table, from the store (finished runs only while it runs). */
  read(id: string): { sweep: SweepSummary; grid: SweepGrid; rows: SweepRow[] } | undefined;
  /** Resolves when the sweep is over (at once if it is not running here). */
  whenFinished(id: string): Promise<void>;
}

export interface SweepRegistryOptions {
  runStore: RunStore;
  sweepStore: SweepStore;
  createRunner: () => Promise<SweepJobRunner>;
  /** Where jobs will run (stored on the sweep before the runner exists). */
  runnerKind: SweepSummary['runner'];
}

interface LiveSweep {
  cancel: AbortController;
  latest: SweepProgress | undefined;
  listeners: Set<SweepListener>;
  done: Promise<void>;
}

/**
 * Sweeps running in this process: each gets its own runner (closed when it ends, so the
 * workers' memory goes back), its progress fans out to SSE subscribers, and everything a
 * reload needs is in the store. Sweeps a previous process left running are marked failed.
 */
export function createSweepRegistry({ runStore, sweepStore, createRunner, runnerKind }: SweepRegistryOptions): SweepRegistry {
  const live = new Map<string, LiveSweep>();
  sweepStore.closeInterrupted('the server stopped while this sweep ran; its finished runs are kept');

  const stored = (id: string): SweepProgress | undefined => {
    const record = sweepStore.getSweep(id);
    return record ? { summary: record.summary, runsPerSec: 0, etaMs: null } : undefined;
  };

  return {
    start(grid) {
      const id = `sweep-${randomUUID().slice(0, 8)}`;
      const entry: LiveSweep = { cancel: new AbortController(), latest: undefined, listeners: new Set(), done: Promise.resolve() };
      createSweepRecord({ sweepStore, sweepId: id, grid, runner: runnerKind });
      live.set(id, entry);
      const broadcast = (progress: SweepProgress): void => {
        entry.latest = progress;
        for (const l of entry.listeners) l.onProgress(progress);
      };
      entry.done = (async () => {
        let runner: SweepJobRunner | undefined;
        try {
          runner = await createRunner();
          await executeSweep({ sweepId: id, grid, runner, runStore, sweepStore, signal: entry.cancel.signal, onProgress: broadcast, created: true });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          console.error(`[loop-lab] sweep ${id} failed: ${message}`);
          const summary = sweepStore.getSweep(id)!.summary;
          sweepStore.updateSweep({ id, done: summary.done, elapsedMs: summary.elapsed_ms, status: 'failed', message });
          broadcast(stored(id)!);
        } finally {
          await runner?.close().catch(() => {});
          live.delete(id);
          for (const l of entry.listeners) l.onEnd();
          entry.listeners.clear();
        }
      })();
      return { id };
    },

    cancel(id) {
      const entry = live.get(id);
      if (!entry) {
        if (!sweepStore.getSweep(id)) throw new HttpError(404, `No sweep with id ${id}`);
        throw new HttpError(409, `Sweep ${id} is not running`);
      }
      entry.cancel.abort();
    },

    subscribe(id, listener) {
      const entry = live.get(id);
      if (!entry) {
        const last = stored(id);
        if (!last) throw new HttpError(404, `No sweep with id ${id}`);
        listener.onProgress(last);
        listener.onEnd();
        return () => {};
      }
      const first = entry.latest ?? stored(id);
      if (first) listener.onProgress(first);
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },

    read(id) {
      const record = sweepStore.getSweep(id);
      if (!record) return undefined;
      const latest = live.get(id)?.latest?.summary;
      const sweep = latest && latest.done >= record.summary.done ? latest : record.summary;
      return { sweep, grid: record.grid, rows: resultsTable({ cells: listCells(record.grid), metrics: sweepStore.readSweepMetrics(id) }) };
    },

    whenFinished(id) {
      return live.get(id)?.done ?? Promise.resolve();
    },
  };
}
