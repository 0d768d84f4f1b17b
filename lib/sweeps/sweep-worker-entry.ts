import { enableCheckResultCache } from '@/lib/tools/check/check-result-cache';
import { runSweepJob, type SweepJobInput, type SweepJobResult } from './run-sweep-job';

// Sweep runs end on the same workspaces again and again: in a sweep worker a check run once on
// identical input answers from its report (lib/tools/check/check-result-cache.ts says what is
// and is not kept). Only here, in the worker's own thread: a process that also serves the
// playground (a real endpoint's sweep runs on the server's thread) runs every check.
enableCheckResultCache();

/**
 * A worker thread of the local sweep pool. Piscina loads it by file path, as one bundled
 * JavaScript file built from here (lib/sweeps/worker-bundle.ts), and calls the default export
 * with each task (a simulated vendor's job: a real endpoint's runs on the pool's own thread).
 */
export default function run(task: SweepJobInput): Promise<SweepJobResult> {
  return runSweepJob(task);
}
