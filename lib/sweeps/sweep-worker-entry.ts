import { runSweepJob, type SweepJobInput, type SweepJobResult } from './run-sweep-job';

/**
 * A worker thread of the local sweep pool. Piscina loads it by file path, as one bundled
 * JavaScript file built from here (lib/sweeps/worker-bundle.ts), and calls the default export
 * with each task (a simulated vendor's job: a real endpoint's runs on the pool's own thread).
 */
export default function run(task: SweepJobInput): Promise<SweepJobResult> {
  return runSweepJob(task);
}
