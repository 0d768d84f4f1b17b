import { runSweepJob, type SweepJobResult } from './run-sweep-job';
import type { SweepJob } from './expand-grid';

/**
 * A worker thread of the local sweep pool. Piscina loads it by file path, as one bundled
 * JavaScript file built from here (lib/sweeps/worker-bundle.ts), and calls the default export
 * with each task.
 */
export default function run(task: { sweepId: string; job: SweepJob }): Promise<SweepJobResult> {
  return runSweepJob(task);
}
