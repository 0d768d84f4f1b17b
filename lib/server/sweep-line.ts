/** The sweeps of this process in memory: each live sweep's listeners, and the line they wait in for the runner. */
import type { SweepGrid } from '@/lib/protocol';
import type { SweepProgress } from '@/lib/sweeps/execute-sweep';
import type { SweepJobRunner } from '@/lib/sweeps/local-pool';

/** Receives a sweep's progress (the current state at once, then changes), then onEnd once. */
export interface SweepListener {
  onProgress(progress: SweepProgress): void;
  onEnd(): void;
}

/** A sweep started in this process, until it is over. */
export interface LiveSweep {
  grid: SweepGrid;
  /** In memory only, dropped with the entry when the sweep ends. */
  apiKeys?: Readonly<Record<string, string>>;
  cancel: AbortController;
  /** Its row as stored when it started (what a waiting sweep's place in line is told over). */
  base: SweepProgress;
  latest: SweepProgress | undefined;
  listeners: Set<SweepListener>;
  done: Promise<void>;
  finish: () => void;
}

/** What the line of sweeps needs of the registry. */
interface SweepLineDeps {
  entryOf: (id: string) => LiveSweep;
  /** Reports a sweep over (after the runner is closed, when it was the last in line). */
  end: (id: string, entry: LiveSweep) => void;
  createRunner: () => Promise<SweepJobRunner>;
  /** Runs one sweep to its end; `runner` creates the shared runner on first use. */
  run: (id: string, entry: LiveSweep, runner: () => Promise<SweepJobRunner>) => Promise<void>;
}

/**
 * The sweeps waiting for the one runner this process shares, run one at a time in order. Each
 * waiting sweep is told its place and the sweep it waits for; the runner is created for the
 * first and closed after the last.
 */
export function createSweepLine({ entryOf, end, createRunner, run }: SweepLineDeps) {
  /** Sweeps waiting for the runner, in order. */
  const waiting: string[] = [];
  let current: string | undefined;
  let runner: SweepJobRunner | undefined;
  let draining: Promise<void> | undefined;

  /** Tells every waiting sweep its place in line and the sweep it waits for. */
  const announce = (): void => {
    waiting.forEach((id, index) => {
      const entry = entryOf(id);
      const base = entry.base;
      const queue = current ? { queue: { position: index + 1, waiting_for: current } } : {};
      broadcast(entry, { ...base, summary: { ...base.summary, status: 'queued', ...queue } });
    });
  };

  const closeRunner = async (): Promise<void> => {
    const closing = runner;
    runner = undefined;
    await closing?.close().catch(() => {});
  };

  /**
   * Runs the waiting sweeps one after another on the shared runner. After the last one in line
   * the runner is closed before that sweep is reported ended, so its threads are gone by then.
   */
  const drain = async (): Promise<void> => {
    for (let id = waiting.shift(); id !== undefined; id = waiting.shift()) {
      const entry = entryOf(id);
      current = id;
      announce();
      try {
        await run(id, entry, async () => (runner ??= await createRunner()));
      } finally {
        current = undefined;
        if (waiting.length === 0) await closeRunner();
        end(id, entry);
      }
    }
    draining = undefined;
  };

  return {
    announce,
    /** Whether a sweep started now would wait. */
    busy: (): boolean => current !== undefined || waiting.length > 0 || draining !== undefined,
    /** Puts a sweep at the end of the line (it runs at once when the line is empty). */
    join(id: string): void {
      waiting.push(id);
      announce();
      draining ??= drain();
    },
    /** Takes a waiting sweep out of the line; false when it is not waiting (it runs). */
    leave(id: string): boolean {
      const place = waiting.indexOf(id);
      if (place < 0) return false;
      waiting.splice(place, 1);
      return true;
    },
  };
}

/** A sweep just started: nobody listening, not cancelled, not over. */
export function newLiveSweep(
  grid: SweepGrid,
  base: SweepProgress,
  apiKeys: Readonly<Record<string, string>> | undefined,
): LiveSweep {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    grid,
    ...(apiKeys ? { apiKeys } : {}),
    cancel: new AbortController(),
    base,
    latest: undefined,
    listeners: new Set(),
    done,
    finish,
  };
}

/** Hands a sweep's progress to every listener, and keeps it for the next one to subscribe. */
export function broadcast(entry: LiveSweep, progress: SweepProgress): void {
  entry.latest = progress;
  for (const l of entry.listeners) l.onProgress(progress);
}

/** Ends every listener of a sweep that is over, and whoever awaits it. */
export function endAll(entry: LiveSweep): void {
  for (const l of entry.listeners) l.onEnd();
  entry.listeners.clear();
  entry.finish();
}
