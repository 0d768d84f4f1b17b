import type { SweepProgress } from '@/lib/sweeps/execute-sweep';

/** One line of sweep progress: a bar, runs done of total, runs per second, time left. */
export function progressLine({ summary, runsPerSec, etaMs }: SweepProgress, width = 30): string {
  const fraction = summary.total === 0 ? 1 : summary.done / summary.total;
  const filled = Math.round(fraction * width);
  const eta = etaMs === null ? '–' : `${Math.ceil(etaMs / 1000)} s`;
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${summary.done}/${summary.total} runs · ${runsPerSec.toFixed(1)} runs/s · ${eta} left`;
}

/**
 * Draws progress on a terminal in place (at most ten times a second); on a pipe, a line
 * every tenth of the way, so logs stay short.
 */
export function createProgressPrinter(stream: NodeJS.WriteStream): {
  update(p: SweepProgress): void;
  end(): void;
} {
  let lastDraw = 0;
  let lastTenth = -1;
  let drawn = false;
  return {
    update(progress) {
      const now = Date.now();
      const final = progress.summary.status !== 'running';
      if (stream.isTTY) {
        if (!final && now - lastDraw < 100) return;
        lastDraw = now;
        drawn = true;
        stream.write(`\r${progressLine(progress)}\x1b[K`);
        return;
      }
      const tenth = Math.floor((progress.summary.done / Math.max(1, progress.summary.total)) * 10);
      if (tenth === lastTenth && !final) return;
      lastTenth = tenth;
      stream.write(`${progressLine(progress)}\n`);
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}
